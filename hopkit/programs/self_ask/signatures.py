"""Self-Ask's two steps: the next line of its decomposition (a follow-up question or the final answer), and the
intermediate answer to a follow-up from the paragraphs retrieved for it."""

from __future__ import annotations

import dspy


class NextLine(dspy.Signature):
    """Answer a question by asking simpler follow-up questions first. Given the follow-up questions and their
    intermediate answers so far, write the next line: 'Follow up: ' and a question about one fact that is still
    missing, or 'So the final answer is: ' and the answer once the facts so far answer the question."""

    context: list[str] = dspy.InputField(desc="paragraphs retrieved for the follow-up questions so far")
    question: str = dspy.InputField()
    so_far: str = dspy.InputField(desc="the follow-up questions and intermediate answers so far, one per line")
    next_line: str = dspy.OutputField(desc="'Follow up: ...' or 'So the final answer is: ...'")


class IntermediateAnswer(dspy.Signature):
    """Answer the follow-up question from the paragraphs, in one short sentence that names the fact."""

    context: list[str] = dspy.InputField(desc="paragraphs retrieved for the follow-up question")
    follow_up: str = dspy.InputField()
    answer: str = dspy.OutputField(desc="one short sentence")


class FinalAnswer(dspy.Signature):
    """The follow-up questions have run out. Answer the question from their intermediate answers and the
    paragraphs. Reply with the answer alone: a name, a place, a year, or yes/no."""

    context: list[str] = dspy.InputField(desc="paragraphs retrieved for the follow-up questions")
    question: str = dspy.InputField()
    so_far: str = dspy.InputField(desc="the follow-up questions and intermediate answers")
    answer: str = dspy.OutputField(desc="a short phrase")
