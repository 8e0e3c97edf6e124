"""The papers' baselines: NoR (no retrieval) and OneR (one retrieval with the question).

Given ``train``, both read with IRCoT's few-shot reader, as in the IRCoT paper: OneR's demonstrations are IRCoT's
reader demonstrations (gold paragraphs, M distractors, the chain and its answer), NoR's the same questions and
answers without paragraphs."""

from __future__ import annotations

from typing import Any, Literal, TypeGuard

import dspy

from hopkit.additions.answer_as_asked import reader_as_asked
from hopkit.data.examples import Dataset
from hopkit.knobs import PARAGRAPH_WORDS, profile_values
from hopkit.knobs.declared import knob
from hopkit.knobs.knob import Profile
from hopkit.knobs.values import program_knobs
from hopkit.programs.answer_steps import AnswerSteps
from hopkit.programs.documented import documented
from hopkit.programs.ircot.demonstrations import DemoSet, demos_for
from hopkit.programs.knobbed import KnobbedProgram
from hopkit.programs.own_example import without_own_example
from hopkit.programs.prediction import hop_prediction
from hopkit.retrieval.counting import counted
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


def has_chains(train: Dataset | None) -> TypeGuard[Dataset]:
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
        self.reasoning, self.profile = reasoning, profile
        self.method_name = "nor" if reasoning == "direct" else "nor-cot"
        self.answer = _answer_step(ClosedBookAnswer, reasoning)
        if has_chains(train):
            # IRCoT's picks, packed as they are with hopkit's paragraph cut (the paragraphs are then left out)
            ircot = {**profile_values("ircot", profile), "paragraph_words": PARAGRAPH_WORDS}
            _predictor(self.answer).demos = reader_demos(demos_for(train, ircot), reasoning, closed_book=True)

    def forward(self, question: str) -> dspy.Prediction:
        out = self.answer(question=question, **without_own_example(_predictor(self.answer), question))
        trace = {"method": "nor", "reasoning": self.reasoning, "thought": getattr(out, "reasoning", None)}
        return hop_prediction(out.answer, citations=[], retrieved=[], trace=trace)


class OneR(KnobbedProgram):
    """Retrieve ``k`` paragraphs with the question as the query, then answer from them (IRCoT's OneR)."""

    def __init__(self, retriever: Retriever, reasoning: Reasoning = "direct", *, profile: Profile = "hopkit",
                 train: Dataset | None = None, **given: Any) -> None:
        super().__init__()
        self.retriever, self.profile, self.reasoning = counted(retriever), profile, reasoning
        self.method_name = "oner" if reasoning == "direct" else "oner-cot"
        self.knobs = knobs = program_knobs("oner", profile, given, owner="OneR")
        self.answer = _answer_step(reader_as_asked(ContextAnswer, knobs), reasoning)
        self.answer_steps = AnswerSteps.from_knobs(knobs)
        if has_chains(train):
            demos = demos_for(train, {**knobs, "balance_openings": _balanced(profile)})
            _predictor(self.answer).demos = reader_demos(demos, reasoning)

    def forward(self, question: str) -> dspy.Prediction:
        passages = self.retriever.retrieve(question, self.knobs.k)
        context = [p.as_context(self.knobs.paragraph_words) for p in passages]
        out = self.answer(context=context, question=question,
                          **without_own_example(_predictor(self.answer), question))
        answer, steps = self.answer_steps(question, out.answer or "", getattr(out, "reasoning", None) or "", context)
        pids = [p.pid for p in passages]
        trace = {"method": "oner", "profile": self.profile, "reasoning": self.reasoning, "query": question,
                 "retrieved": [{"pid": p.pid, "title": p.title, "score": p.score} for p in passages],
                 "thought": getattr(out, "reasoning", None), "answer_before_steps": out.answer or "", **steps}
        return hop_prediction(answer, citations=pids, retrieved=pids, trace=trace)


documented(NoR, None)
documented(OneR, "oner")
