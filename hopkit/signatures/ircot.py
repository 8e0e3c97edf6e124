"""IRCoT's two LM steps: continue the reasoning chain, and answer from the collected paragraphs.

The paper's reasoner sees ``paragraphs, Q: question, A: s1 ... sn`` and continues the text; its
demonstrations show complete chains. Here the same prompt is a typed signature: the chain so far
is an input, the model writes the rest of the chain as the output, and the program keeps only the
first sentence of what it writes (the paper's rule). Demonstrations show the rest of a real chain,
always through its answer step.
"""

from __future__ import annotations

import dspy


class ContinueReasoning(dspy.Signature):
    """Answer a multi-hop question by reasoning over the paragraphs, one fact per sentence.
    Each sentence states one fact taken from a paragraph and names the entity it leads to.
    Continue the reasoning from where it stops: do not repeat a sentence that is already there.
    The last sentence is "So the answer is: <answer>." with a short answer."""

    context: list[str] = dspy.InputField(desc="paragraphs collected so far, each starting with its title")
    question: str = dspy.InputField()
    reasoning_so_far: str = dspy.InputField(desc="the sentences of the reasoning written so far (may be empty)")
    continuation: str = dspy.OutputField(desc='the rest of the reasoning, ending with "So the answer is: <answer>."')


class ChainAnswer(dspy.Signature):
    """Answer the multi-hop question from the paragraphs. First reason step by step, one fact from
    the paragraphs per sentence, then give the answer alone: a short phrase (a name, a place, a
    date, a number, or yes/no), copied from the paragraphs where possible."""

    context: list[str] = dspy.InputField(desc="retrieved paragraphs, each starting with its title")
    question: str = dspy.InputField()
    reasoning: str = dspy.OutputField(desc='the facts that lead to the answer, one sentence each, ending with '
                                           '"So the answer is: <answer>."')
    answer: str = dspy.OutputField(desc="the answer alone, a short phrase")
