"""The papers' baselines: NoR (no retrieval) and OneR (one retrieval with the question).

Given ``train``, both read with IRCoT's few-shot reader, as in the IRCoT paper: OneR's demonstrations are IRCoT's
reader demonstrations (gold paragraphs, M distractors, the chain and its answer), NoR's the same questions and
answers without paragraphs."""

from __future__ import annotations

from typing import Literal

import dspy

from hopkit.additions.answer_as_asked import with_answer_as_asked
from hopkit.additions.answer_steps import AnswerSteps
from hopkit.data.examples import Dataset
from hopkit.knobs import resolve
from hopkit.knobs.declared import DEMO_BUDGET, M_DISTRACTORS, MAX_DEMOS, knob
from hopkit.programs.ircot.demonstrations import DemoSet, build_demos
from hopkit.programs.own_example import without_own_example
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


def reader_demos(demos: DemoSet, reasoning: Reasoning, closed_book: bool = False) -> list[dspy.Example]:
    """IRCoT's reader demonstrations in the shape of a baseline's answer step (no paragraphs when closed-book)."""
    chosen = demos.direct_reader if reasoning == "direct" else demos.cot_reader
    if not closed_book:
        return list(chosen)
    return [dspy.Example({k: v for k, v in demo.items() if k != "context"}).with_inputs("question") for demo in chosen]


def has_chains(train: Dataset | None) -> bool:
    """Whether IRCoT's reader demonstrations can be built from ``train``: a split without chains (an optimizer's
    train split for a teleprompter to bootstrap from) leaves the reader as the teleprompter makes it."""
    return train is not None and any(getattr(ex, "chain", None) for ex in train.examples)


def _balanced(profile: Profile) -> bool:
    """IRCoT's pick of demonstrations under the profile, so a baseline shows the questions IRCoT's reader shows."""
    return knob("ircot", "balance_openings").value_in(profile)


def _predictor(step: dspy.Module) -> dspy.Predict:
    """The Predict inside an answer step (ChainOfThought wraps one)."""
    return step if isinstance(step, dspy.Predict) else step.predict


class NoR(dspy.Module):
    """Closed-book: the LM answers from its parameters alone; with ``train``, from IRCoT's few-shot prompt
    without its paragraphs (the demonstration budget and count are the profile's values of IRCoT's knobs)."""

    def __init__(self, reasoning: Reasoning = "direct", train: Dataset | None = None,
                 profile: Profile = "hopkit") -> None:
        super().__init__()
        self.reasoning = reasoning
        self.answer = _answer_step(ClosedBookAnswer, reasoning)
        if has_chains(train):
            demos = build_demos(train.examples, train.corpus, m_distractors=M_DISTRACTORS.value_in(profile),
                                budget_wordpieces=DEMO_BUDGET.value_in(profile), max_demos=MAX_DEMOS.value_in(profile),
                                balance_openings=_balanced(profile))
            _predictor(self.answer).demos = reader_demos(demos, reasoning, closed_book=True)

    def forward(self, question: str) -> dspy.Prediction:
        out = self.answer(question=question, **without_own_example(_predictor(self.answer), question))
        trace = {"method": "nor", "reasoning": self.reasoning, "thought": getattr(out, "reasoning", None)}
        return hop_prediction(out.answer, citations=[], retrieved=[], trace=trace)


class OneR(dspy.Module):
    """Retrieve ``k`` paragraphs with the question as the query, then answer from them (IRCoT's OneR)."""

    def __init__(self, retriever: Retriever, k: int | None = None, reasoning: Reasoning = "direct",
                 paragraph_words: int | None = None, answer_as_asked: bool | None = None,
                 yes_no_check: bool | None = None, restatement: bool | None = None,
                 option_check: bool | None = None, date_comparison: bool | None = None,
                 m_distractors: int | None = None, demo_budget: int | None = None, max_demos: int | None = None,
                 profile: Profile = "hopkit", train: Dataset | None = None) -> None:
        super().__init__()
        knobs = resolve("oner", profile, dict(k=k, paragraph_words=paragraph_words, answer_as_asked=answer_as_asked,
                                              m_distractors=m_distractors, demo_budget=demo_budget,
                                              max_demos=max_demos,
                                              yes_no_check=yes_no_check, restatement=restatement,
                                              option_check=option_check, date_comparison=date_comparison),
                        owner="OneR")
        self.retriever, self.profile, self.knobs = retriever, profile, knobs
        self.k, self.max_words = knobs["k"], knobs["paragraph_words"]
        self.reasoning = reasoning
        self.answer = _answer_step(with_answer_as_asked(ContextAnswer, knobs["answer_as_asked"]), reasoning)
        self.answer_steps = AnswerSteps.from_knobs(knobs)
        if has_chains(train):
            demos = build_demos(train.examples, train.corpus, m_distractors=knobs["m_distractors"],
                                budget_wordpieces=knobs["demo_budget"], max_demos=knobs["max_demos"],
                                max_words=self.max_words, balance_openings=_balanced(profile))
            _predictor(self.answer).demos = reader_demos(demos, reasoning)

    def forward(self, question: str) -> dspy.Prediction:
        passages = self.retriever.retrieve(question, self.k)
        context = [p.as_context(self.max_words) for p in passages]
        out = self.answer(context=context, question=question,
                          **without_own_example(_predictor(self.answer), question))
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
