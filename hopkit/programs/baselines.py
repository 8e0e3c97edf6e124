"""The papers' baselines: NoR (no retrieval) and OneR (one retrieval with the question)."""

from __future__ import annotations

from typing import Literal

import dspy

from hopkit.additions.answer_as_asked import with_answer_as_asked
from hopkit.additions.answer_steps import AnswerSteps
from hopkit.knobs import resolve
from hopkit.programs.documented import documented
from hopkit.knobs.knob import Profile
from hopkit.programs.prediction import hop_prediction
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
    """Retrieve ``k`` paragraphs with the question as the query, then answer from them (IRCoT's OneR)."""

    def __init__(self, retriever: Retriever, k: int | None = None, reasoning: Reasoning = "direct",
                 paragraph_words: int | None = None, answer_as_asked: bool | None = None,
                 yes_no_check: bool | None = None, restatement: bool | None = None,
                 option_check: bool | None = None, date_comparison: bool | None = None,
                 profile: Profile = "hopkit") -> None:
        super().__init__()
        knobs = resolve("oner", profile, dict(k=k, paragraph_words=paragraph_words, answer_as_asked=answer_as_asked,
                                              yes_no_check=yes_no_check, restatement=restatement,
                                              option_check=option_check, date_comparison=date_comparison),
                        owner="OneR")
        self.retriever, self.profile, self.knobs = retriever, profile, knobs
        self.k, self.max_words = knobs["k"], knobs["paragraph_words"]
        self.reasoning = reasoning
        self.answer = _answer_step(with_answer_as_asked(ContextAnswer, knobs["answer_as_asked"]), reasoning)
        self.answer_steps = AnswerSteps.from_knobs(knobs)

    def forward(self, question: str) -> dspy.Prediction:
        passages = self.retriever.retrieve(question, self.k)
        context = [p.as_context(self.max_words) for p in passages]
        out = self.answer(context=context, question=question)
        answer, steps = self.answer_steps(question, out.answer or "", getattr(out, "reasoning", None) or "", context)
        pids = [p.pid for p in passages]
        trace = {"method": "oner", "profile": self.profile, "reasoning": self.reasoning, "query": question,
                 "retrieved": [{"pid": p.pid, "title": p.title, "score": p.score} for p in passages],
                 "thought": getattr(out, "reasoning", None), "answer_before_steps": out.answer or "",
                 "yes_no_check": steps.get("yes_no_check"), "option_check": steps.get("option_check"),
                 "date_comparison": steps.get("date_comparison")}
        return hop_prediction(answer, citations=pids, retrieved=pids, trace=trace)


documented(NoR, None)
documented(OneR, "oner")
