"""ITER-RETGEN (Shao et al., 2023) as ToR's section 4.3 runs it: for T turns, retrieve with the question and the
last turn's response, then answer the question from this turn's paragraphs; the last turn's answer stands."""

from __future__ import annotations

from typing import Any

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.additions.answer_as_asked import reader_as_asked
from hopkit.data.examples import Dataset
from hopkit.knobs.knob import Profile
from hopkit.knobs.values import program_knobs
from hopkit.programs.answer_steps import AnswerSteps
from hopkit.programs.documented import documented
from hopkit.programs.iter_retgen.signatures import GenerateFromParagraphs
from hopkit.programs.iter_retgen.trace import IterRetGenTrace, Turn
from hopkit.programs.knobbed import KnobbedProgram
from hopkit.programs.own_example import without_own_example
from hopkit.programs.prediction import hop_prediction
from hopkit.programs.worked_examples import WorkedExample, worked_examples
from hopkit.retrieval.counting import counted
from hopkit.retrieval.protocol import Retriever


def generation_demos(examples: list[WorkedExample], words: int) -> list[dspy.Example]:
    """A worked example as one turn that found every gold paragraph: its facts, then its answer."""
    return [dspy.Example(context=[hop.paragraph.as_context(words) for hop in example.hops], question=example.question,
                         reasoning=" ".join(hop.fact for hop in example.hops), answer=example.answer
                         ).with_inputs("context", "question") for example in examples]


class IterRetGen(KnobbedProgram):
    """Retrieval and generation in turns: each turn's query is the question and the previous response."""

    def __init__(self, retriever: Retriever, *, profile: Profile = "hopkit", train: Dataset | None = None,
                 **given: Any) -> None:
        super().__init__()
        self.retriever, self.profile, self.method_name = counted(retriever), profile, "iter-retgen"
        self.knobs = knobs = program_knobs("iter-retgen", profile, given, owner="IterRetGen")
        self.generate = dspy.Predict(reader_as_asked(GenerateFromParagraphs, knobs))
        self.generate.demos = generation_demos(worked_examples(train, knobs.shots), knobs.paragraph_words)
        self.answer_steps = AnswerSteps.from_knobs(knobs)

    def forward(self, question: str) -> dspy.Prediction:
        query, reasoning, answer = question, "", ""
        turns: list[Turn] = []
        retrieved: list[str] = []  # every turn's paragraphs, first seen first (recall@15 reads these)
        context: list[str] = []
        read: list[str] = []  # this turn's paragraphs, which the answer rests on
        for turn in range(1, self.knobs.max_turns + 1):
            passages = self.retriever.retrieve(query, self.knobs.k)
            retrieved += [p.pid for p in passages if p.pid not in retrieved]
            context = [p.as_context(self.knobs.paragraph_words) for p in passages]
            reasoning, answer, parse = self._generate(context, question)
            read = [p.pid for p in passages]
            turns.append(Turn(turn, query, read, reasoning, answer, parse))
            query = f"{question} {reasoning} {answer}".strip()  # the next turn retrieves with the response
        final, steps = self.answer_steps(question, answer, reasoning, context)
        trace = IterRetGenTrace(self.profile, dict(self.knobs), turns, answer, steps)
        return hop_prediction(final, citations=read, retrieved=retrieved, trace=trace.to_dict())

    def _generate(self, context: list[str], question: str) -> tuple[str, str, str]:
        """The response's reasoning and answer; an output that does not parse keeps its text as the reasoning."""
        try:
            out = self.generate(context=context, question=question, **without_own_example(self.generate, question))
            return str(out.reasoning or ""), str(out.answer or ""), "typed"
        except AdapterParseError as error:
            return str(error.lm_response or ""), "", "failed"


documented(IterRetGen, "iter-retgen")
