"""Text helpers that programs and evaluation share: answer normalisation, token F1, ROUGE-L, question forms.

A leaf package (standard library only), so that no program depends on the evaluation package.
"""
