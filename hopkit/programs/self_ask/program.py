"""Self-Ask (Press et al., 2023) as ToR's section 4.3 runs it: the LM asks a follow-up question, retrieval brings
paragraphs for it and the LM answers it, until the LM states the final answer or the turns run out. The retrieved
paragraphs stand before the question (in ReAct they sit in the trajectory, which is how ToR tells the two apart).
Without IR (SearChain's "Self-Ask w/o IR"), the LM answers its follow-ups from what it knows."""

from __future__ import annotations

import re
from typing import Any

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.data.examples import Dataset
from hopkit.knobs.knob import Profile
from hopkit.knobs.values import program_knobs
from hopkit.programs.answer_steps import AnswerSteps
from hopkit.programs.documented import documented
from hopkit.programs.knobbed import KnobbedProgram
from hopkit.programs.own_example import without_own_example
from hopkit.programs.prediction import hop_prediction
from hopkit.programs.self_ask.signatures import FinalAnswer, IntermediateAnswer, NextLine
from hopkit.programs.self_ask.trace import FollowUp, SelfAskTrace
from hopkit.programs.worked_examples import WorkedExample, worked_examples
from hopkit.retrieval.counting import counted
from hopkit.retrieval.protocol import Retriever

FOLLOW_UP, FINAL = "Follow up: ", "So the final answer is: "
_FOLLOW_UP = re.compile(r"follow[- ]?up\s*(?:question)?\s*:\s*(.+)", re.I | re.S)
_FINAL = re.compile(r"final answer\s*(?:is)?\s*:?\s*(.+)", re.I | re.S)


def read_line(line: str) -> tuple[str, str, str]:
    """(kind, text, parse): a follow-up question or the final answer. A line in neither form is read by its shape
    (a question is a follow-up, else an answer) and counted as ``loose``."""
    line = line.strip()
    if match := _FINAL.search(line):
        return "final", match.group(1).strip(), "typed"
    if match := _FOLLOW_UP.search(line):
        return "follow_up", match.group(1).strip().splitlines()[0], "typed"
    return ("follow_up" if line.endswith("?") else "final"), line, "loose"


def so_far_text(steps: list[FollowUp]) -> str:
    return "\n".join(f"{FOLLOW_UP}{s.follow_up}\nIntermediate answer: {s.answer}" for s in steps)


def next_line_demos(examples: list[WorkedExample], words: int, paragraphs: bool = True) -> list[dspy.Example]:
    """Each worked example at one point of its decomposition, the i-th at its i-th line, so that the demonstrations
    show a first follow-up, a later one, and a final answer (``paragraphs``: with those retrieved so far)."""
    demos = []
    for i, example in enumerate(examples):
        asked = min(i, len(example.hops))
        steps = [FollowUp(hop.query, [hop.paragraph.pid], "typed", hop.fact) for hop in example.hops[:asked]]
        line = FINAL + example.answer if asked == len(example.hops) else FOLLOW_UP + example.hops[asked].query
        shown = example.hops[:asked] if paragraphs else ()
        demos.append(dspy.Example(context=[hop.paragraph.as_context(words) for hop in shown],
                                  question=example.question, so_far=so_far_text(steps), next_line=line
                                  ).with_inputs("context", "question", "so_far"))
    return demos


def intermediate_demos(examples: list[WorkedExample], words: int) -> list[dspy.Example]:
    return [dspy.Example(context=[hop.paragraph.as_context(words)], follow_up=hop.query, answer=hop.fact
                         ).with_inputs("context", "follow_up") for example in examples for hop in example.hops[:1]]


class SelfAsk(KnobbedProgram):
    """Follow-up questions, each answered from its own retrieval, then the final answer."""

    def __init__(self, retriever: Retriever | None, *, profile: Profile = "hopkit", use_ir: bool = True,
                 train: Dataset | None = None, **given: Any) -> None:
        super().__init__()
        self.retriever, self.profile, self.use_ir = counted(retriever) if use_ir else None, profile, use_ir
        self.method_name = "self-ask" if use_ir else "self-ask-noir"
        self.knobs = knobs = program_knobs("self-ask", profile, given, owner="SelfAsk")
        self.next_line, self.intermediate = dspy.Predict(NextLine), dspy.Predict(IntermediateAnswer)
        self.final = dspy.Predict(FinalAnswer)
        shown = worked_examples(train, knobs.shots)
        self.next_line.demos = next_line_demos(shown, knobs.paragraph_words, paragraphs=use_ir)
        self.intermediate.demos = intermediate_demos(shown, knobs.paragraph_words) if use_ir else []
        self.answer_steps = AnswerSteps.from_knobs(knobs)

    def forward(self, question: str) -> dspy.Prediction:
        steps: list[FollowUp] = []
        context: list[str] = []
        retrieved: list[str] = []
        answer, finished_by = "", "turns"
        for _ in range(self.knobs.max_turns + 1):
            kind, text, parse = self._next(context, question, steps)
            if kind == "final":
                answer, finished_by = text, "model"
                break
            if len(steps) == self.knobs.max_turns or not text:
                break
            found = self.retriever.retrieve(text, self.knobs.k) if self.retriever is not None else []
            retrieved += [p.pid for p in found if p.pid not in retrieved]
            paragraphs = [p.as_context(self.knobs.paragraph_words) for p in found]
            context += [p for p in paragraphs if p not in context]
            steps.append(FollowUp(text, [p.pid for p in found], parse, self._intermediate(paragraphs, text)))
        if finished_by != "model":
            answer = self._final(context, question, steps)
        reasoning = so_far_text(steps)
        final, answered = self.answer_steps(question, answer, reasoning, context)
        trace = SelfAskTrace(self.profile, dict(self.knobs), self.use_ir, steps, finished_by, answer, answered)
        return hop_prediction(final, citations=retrieved, retrieved=retrieved, trace=trace.to_dict())

    def _next(self, context: list[str], question: str, steps: list[FollowUp]) -> tuple[str, str, str]:
        try:
            out = self.next_line(context=context, question=question, so_far=so_far_text(steps),
                                 **without_own_example(self.next_line, question))
            return read_line(str(out.next_line or ""))
        except AdapterParseError as error:
            kind, text, _ = read_line(str(error.lm_response or ""))
            return kind, text, "failed"

    def _intermediate(self, paragraphs: list[str], follow_up: str) -> str:
        try:
            return str(self.intermediate(context=paragraphs, follow_up=follow_up).answer or "")
        except AdapterParseError as error:
            return str(error.lm_response or "").strip()

    def _final(self, context: list[str], question: str, steps: list[FollowUp]) -> str:
        try:
            return str(self.final(context=context, question=question, so_far=so_far_text(steps)).answer or "")
        except AdapterParseError as error:
            return str(error.lm_response or "").strip()


documented(SelfAsk, "self-ask")
