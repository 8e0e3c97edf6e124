"""The LM reader's step: copy the shortest span of one paragraph that answers the question."""

from __future__ import annotations

import dspy

NO_ANSWER = "NONE"


class ExtractAnswerSpan(dspy.Signature):
    """Copy, character for character, the shortest span of the paragraph that answers the
    question. If the paragraph does not contain the answer, write NONE."""

    question: str = dspy.InputField()
    paragraph: str = dspy.InputField()
    span: str = dspy.OutputField(desc="an exact substring of the paragraph, or NONE")
