"""ITER-RETGEN's one step: generate a response to the question from this turn's paragraphs."""

from __future__ import annotations

import dspy


class GenerateFromParagraphs(dspy.Signature):
    """Answer the question using the paragraphs. First state, one after another, the facts from the paragraphs
    that lead to the answer; then give the answer."""

    context: list[str] = dspy.InputField(desc="retrieved paragraphs, each starting with its title")
    question: str = dspy.InputField()
    reasoning: str = dspy.OutputField(desc="the facts that lead to the answer, one sentence each")
    answer: str = dspy.OutputField(desc="a short phrase copied from the paragraphs where possible")
