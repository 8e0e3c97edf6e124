"""IRCoT's two LM steps: extend the reasoning by one sentence, and answer from the collected paragraphs."""

from __future__ import annotations

import dspy


class NextReasoningSentence(dspy.Signature):
    """You are answering a multi-hop question step by step from the paragraphs. Write only the
    NEXT sentence of the reasoning: one new fact taken from the paragraphs that moves toward the
    answer, naming the entity it leads to. When the reasoning so far is enough to answer, write
    "So the answer is: <answer>." instead."""

    context: list[str] = dspy.InputField(desc="paragraphs collected so far, each starting with its title")
    question: str = dspy.InputField()
    reasoning_so_far: str = dspy.InputField(desc="sentences written so far (may be empty)")
    next_sentence: str = dspy.OutputField(desc="exactly one sentence")


class ChainAnswer(dspy.Signature):
    """Answer the multi-hop question from the paragraphs. Reason step by step, one fact per
    sentence, and end with the sentence "So the answer is: <answer>." where the answer is a short
    phrase (a name, a place, a year, or yes/no)."""

    context: list[str] = dspy.InputField(desc="retrieved paragraphs, each starting with its title")
    question: str = dspy.InputField()
    reasoning_chain: str = dspy.OutputField(desc='sentences ending with "So the answer is: <answer>."')
