"""Typed DSPy signatures: the docstring is the instruction the LM sees."""

from hopkit.signatures.answer import ClosedBookAnswer, ContextAnswer, OptionAnswer, YesNoAnswer
from hopkit.signatures.extract_span import ExtractAnswerSpan

__all__ = ["ClosedBookAnswer", "ContextAnswer", "ExtractAnswerSpan", "OptionAnswer", "YesNoAnswer"]
