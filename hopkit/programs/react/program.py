"""ReAct (Yao et al., 2023) as ToR's section 4.3 runs it: a thought and an action at each turn; a search action
retrieves paragraphs, which enter the trajectory as its observation, until the LM finishes with an answer or the
turns run out, when the answer is asked for."""

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
from hopkit.programs.react.signatures import FinishFromTrajectory, ThoughtAction
from hopkit.programs.react.trace import ReActTrace, Search
from hopkit.programs.worked_examples import WorkedExample, worked_examples
from hopkit.retrieval.counting import counted
from hopkit.retrieval.protocol import Retriever

_ACTION = re.compile(r"(search|finish)\s*\[(.*)\]", re.I | re.S)


def read_action(action: str) -> tuple[str, str, str]:
    """(kind, argument, parse): ``Search[q]`` or ``Finish[a]``. An action in neither form is read as a search for
    its text when it asks a question, else as the answer, and counted as ``loose``."""
    if match := _ACTION.search(action):
        return match.group(1).lower(), match.group(2).strip(), "typed"
    text = action.strip()
    return ("search" if text.endswith("?") else "finish"), text, "loose"


def trajectory_text(steps: list[Search], observations: list[list[str]]) -> str:
    """The searches so far, each with its observation: the paragraphs it retrieved."""
    lines = []
    for n, (step, seen) in enumerate(zip(steps, observations), start=1):
        lines += [f"Thought {n}: {step.thought}", f"Action {n}: Search[{step.query}]",
                  f"Observation {n}: " + " ".join(seen)]
    return "\n".join(lines)


def step_demos(examples: list[WorkedExample], words: int) -> list[dspy.Example]:
    """Each worked example at one turn, the i-th at its i-th: the searches so far with their gold paragraphs as
    observations, then the next search, or the finish once every hop is observed."""
    demos = []
    for i, example in enumerate(examples):
        done = min(i, len(example.hops))
        steps = [Search(f"I need to find out: {hop.query}", hop.query, "typed", [hop.paragraph.pid])
                 for hop in example.hops[:done]]
        observations = [[hop.paragraph.as_context(words)] for hop in example.hops[:done]]
        if done == len(example.hops):
            thought = " ".join(hop.fact for hop in example.hops) + " That answers the question."
            action = f"Finish[{example.answer}]"
        else:
            found = " ".join(hop.fact for hop in example.hops[:done])
            thought = (found + " " if found else "") + f"Next I need to find out: {example.hops[done].query}"
            action = f"Search[{example.hops[done].query}]"
        demos.append(dspy.Example(question=example.question, trajectory=trajectory_text(steps, observations),
                                  thought=thought,
                                  action=action).with_inputs("question", "trajectory"))
    return demos


class ReAct(KnobbedProgram):
    """Thought, search and observation turns, then finish."""

    def __init__(self, retriever: Retriever, *, profile: Profile = "hopkit", train: Dataset | None = None,
                 **given: Any) -> None:
        super().__init__()
        self.retriever, self.profile, self.method_name = counted(retriever), profile, "react"
        self.knobs = knobs = program_knobs("react", profile, given, owner="ReAct")
        self.step, self.finish = dspy.Predict(ThoughtAction), dspy.Predict(FinishFromTrajectory)
        self.step.demos = step_demos(worked_examples(train, knobs.shots), knobs.paragraph_words)
        self.answer_steps = AnswerSteps.from_knobs(knobs)

    def forward(self, question: str) -> dspy.Prediction:
        steps: list[Search] = []
        observations: list[list[str]] = []
        retrieved: list[str] = []
        thoughts: list[str] = []
        answer, finished_by = "", "turns"
        for _ in range(self.knobs.max_turns + 1):
            thought, kind, argument, parse = self._step(question, trajectory_text(steps, observations))
            thoughts.append(thought)
            if kind == "finish":
                answer, finished_by = argument, "model"
                break
            if len(steps) == self.knobs.max_turns or not argument:
                break
            found = self.retriever.retrieve(argument, self.knobs.k)
            retrieved += [p.pid for p in found if p.pid not in retrieved]
            steps.append(Search(thought, argument, parse, [p.pid for p in found]))
            observations.append([p.as_context(self.knobs.paragraph_words) for p in found])
        if finished_by != "model":
            answer = self._finish(question, trajectory_text(steps, observations))
        context = [paragraph for seen in observations for paragraph in seen]
        final, answered = self.answer_steps(question, answer, " ".join(t for t in thoughts if t), context)
        trace = ReActTrace(self.profile, dict(self.knobs), steps, thoughts, finished_by, answer, answered)
        return hop_prediction(final, citations=retrieved, retrieved=retrieved, trace=trace.to_dict())

    def _step(self, question: str, trajectory: str) -> tuple[str, str, str, str]:
        try:
            out = self.step(question=question, trajectory=trajectory,
                            **without_own_example(self.step, question))
            return (str(out.thought or ""), *read_action(str(out.action or "")))
        except AdapterParseError as error:
            kind, argument, _ = read_action(str(error.lm_response or ""))
            return "", kind, argument, "failed"

    def _finish(self, question: str, trajectory: str) -> str:
        try:
            return str(self.finish(question=question, trajectory=trajectory).answer or "")
        except AdapterParseError as error:
            return str(error.lm_response or "").strip()


documented(ReAct, "react")
