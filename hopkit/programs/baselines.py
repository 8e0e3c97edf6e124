"""The papers' baselines: NoR (no retrieval) and OneR (one retrieval with the question)."""

from __future__ import annotations

from typing import Literal

import dspy

from hopkit.knobs import PARAGRAPH_WORDS, knob
from hopkit.programs.prediction import hop_prediction
from hopkit.programs.option_check import option_check_if
from hopkit.programs.yes_no_check import yes_no_check_if
from hopkit.retrieval.protocol import Retriever
from hopkit.signatures import ClosedBookAnswer, ContextAnswer

Reasoning = Literal["direct", "cot"]


def _answer_step(signature: type[dspy.Signature], reasoning: Reasoning) -> dspy.Module:
    if reasoning == "direct":
        return dspy.Predict(signature)
    if reasoning == "cot":
        return dspy.ChainOfThought(signature)
    raise ValueError(f"reasoning must be 'direct' or 'cot', got {reasoning!r}")


class NoR(dspy.Module):
    """Closed-book: the LM answers from its parameters alone."""

    def __init__(self, reasoning: Reasoning = "direct") -> None:
        super().__init__()
        self.reasoning = reasoning
        self.answer = _answer_step(ClosedBookAnswer, reasoning)

    def forward(self, question: str) -> dspy.Prediction:
        out = self.answer(question=question)
        trace = {"method": "nor", "reasoning": self.reasoning, "thought": getattr(out, "reasoning", None)}
        return hop_prediction(out.answer, citations=[], retrieved=[], trace=trace)


class OneR(dspy.Module):
    """Retrieve ``k`` paragraphs with the question as the query, then answer from them."""

    def __init__(self, retriever: Retriever, k: int = knob("oner", "k").default, reasoning: Reasoning = "direct",
                 max_words: int = PARAGRAPH_WORDS,
                 yes_no_check: bool = knob("oner", "yes_no_check").default,
                 option_check: bool = knob("oner", "option_check").default) -> None:
        super().__init__()
        self.retriever = retriever
        self.k = knob("oner", "k").check(k)
        self.yes_no_check = yes_no_check_if(yes_no_check)
        self.option_check = option_check_if(option_check)
        self.reasoning = reasoning
        self.max_words = max_words
        self.answer = _answer_step(ContextAnswer, reasoning)

    def forward(self, question: str) -> dspy.Prediction:
        passages = self.retriever.retrieve(question, self.k)
        context = [p.as_context(self.max_words) for p in passages]
        out = self.answer(context=context, question=question)
        answer, checked = out.answer or "", None
        if self.yes_no_check is not None:
            answer, checked = self.yes_no_check(question, answer, getattr(out, "reasoning", None) or "", context)
        picked = None
        if self.option_check is not None:
            answer, picked = self.option_check(question, answer, getattr(out, "reasoning", None) or "", context)
        pids = [p.pid for p in passages]
        trace = {"method": "oner", "reasoning": self.reasoning, "query": question,
                 "retrieved": [{"pid": p.pid, "title": p.title, "score": p.score} for p in passages],
                 "thought": getattr(out, "reasoning", None), "yes_no_check": checked, "option_check": picked}
        return hop_prediction(answer, citations=pids, retrieved=pids, trace=trace)
