"""Answering a question, without documents (NoR) or from retrieved paragraphs (OneR and readers)."""

from __future__ import annotations

import dspy


class ClosedBookAnswer(dspy.Signature):
    """Answer the question from what you know. Reply with the answer alone: a name, a place,
    a year, or yes/no; no full sentence."""

    question: str = dspy.InputField()
    answer: str = dspy.OutputField(desc="a short phrase, often just an entity name")


class ContextAnswer(dspy.Signature):
    """Answer the question using the paragraphs. The question may need facts from two or
    more paragraphs chained together: find the entity the first fact leads to, then look it
    up in another paragraph. Reply with the answer alone: a name, a place, a year, or yes/no."""

    context: list[str] = dspy.InputField(desc="retrieved paragraphs, each starting with its title")
    question: str = dspy.InputField()
    answer: str = dspy.OutputField(desc="a short phrase copied from the paragraphs where possible")


class YesNoAnswer(dspy.Signature):
    """Answer the question with yes or no, using the facts (or the paragraphs, when no facts are given)."""

    context: list[str] = dspy.InputField(desc="the paragraphs (empty when the facts are given)")
    question: str = dspy.InputField()
    facts: str = dspy.InputField(desc="what the reasoning found")
    answer: str = dspy.OutputField(desc="yes or no")


class ShortAnswerForm(dspy.Signature):
    """The answer to the question was written as a whole sentence. Copy out of that sentence the short
    phrase that answers the question: a name, a place, a date, a number, or the one of the named options
    the sentence picks. Copy it word for word; do not add anything."""

    question: str = dspy.InputField()
    sentence: str = dspy.InputField(desc="the answer, written as a sentence")
    answer: str = dspy.OutputField(desc="a short phrase copied from the sentence")


class OptionAnswer(dspy.Signature):
    """The question asks which of two named options fits. Compare the two using the facts stated (or the
    paragraphs, when no facts are stated) and pick the one the question asks for. The answer is always one
    of the two: when the facts leave doubt, pick the one they favour. Reply with the option alone."""

    context: list[str] = dspy.InputField(desc="the paragraphs (empty when the facts are stated)")
    question: str = dspy.InputField()
    options: list[str] = dspy.InputField(desc="the two options the question names")
    facts: str = dspy.InputField(desc="what is known about the options")
    answer: str = dspy.OutputField(desc="one of the two options, copied exactly")
