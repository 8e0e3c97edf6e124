"""IRCoT as a DSPy module: retrieve K with the question, then alternate one reasoning sentence and
a retrieval with that sentence, until "answer is" or the step limit; then a separate reader.

Each reason step shows the model every paragraph collected so far and every sentence written so
far, and lets it continue the chain; only the first sentence it writes is kept (the paper's rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.additions.answer_as_asked import reader_as_asked
from hopkit.data.examples import Dataset
from hopkit.data.passage import Passage
from hopkit.errors import InputError
from hopkit.knobs.knob import Profile
from hopkit.knobs.stand_ins import stand_ins
from hopkit.knobs.values import program_knobs
from hopkit.lm.usage import current_usage
from hopkit.programs.answer_steps import AnswerSteps
from hopkit.programs.documented import documented
from hopkit.programs.ircot.demonstrations import DemoSet, demos_for
from hopkit.programs.ircot.sentences import extract_answer, first_new_sentence, repeats, says_answer, split_sentences
from hopkit.programs.knobbed import KnobbedProgram
from hopkit.programs.own_example import without_own_example
from hopkit.programs.prediction import hop_prediction
from hopkit.retrieval.counting import counted
from hopkit.retrieval.protocol import Retriever
from hopkit.signatures import ContextAnswer
from hopkit.signatures.ircot import ChainAnswer, ContinueReasoning

ReaderMode = Literal["cot", "direct", "none"]


class _Collection:
    """Paragraphs collected for one question, deduplicated, capped, formatted once each."""

    def __init__(self, limit: int, words: int) -> None:
        self.limit, self.words = limit, words
        self.passages: list[Passage] = []
        self.formatted: list[str] = []
        self._seen: set[str] = set()

    def add(self, passages: list[Passage]) -> list[str]:
        added = []
        for passage in passages:
            if len(self.passages) >= self.limit:
                break
            if passage.pid in self._seen:
                continue
            self._seen.add(passage.pid)
            self.passages.append(passage)
            self.formatted.append(passage.as_context(self.words))
            added.append(passage.pid)
        return added


@dataclass(frozen=True)
class Collected:
    """What IRCoT's retrieval phase leaves for its reader: the paragraphs, the chain, its steps and why it stopped."""

    collection: _Collection
    sentences: list[str]
    steps: list[dict]
    stop: str


def _usage_now() -> tuple[int, int, int]:
    usage = current_usage()
    return (usage.lm_calls, usage.prompt_tokens, usage.completion_tokens) if usage else (0, 0, 0)


def _delta(before: tuple[int, int, int]) -> dict[str, int]:
    after = _usage_now()
    return {"lm_calls": after[0] - before[0], "prompt_tokens": after[1] - before[1],
            "completion_tokens": after[2] - before[2]}


class IRCoT(KnobbedProgram):
    """IRCoT (Trivedi et al., 2023): interleaved retrieval and chain-of-thought, then a separate reader.

    ``train`` (a dataset with chains, e.g. ``hopkit.load_dataset("bundled:train")``) builds in-context
    demonstrations with ``m_distractors`` and ``balance_openings``, as ``hopkit eval`` does; ``demos`` passes
    a built ``DemoSet`` instead. Neither: zero-shot."""

    def __init__(self, retriever: Retriever, *, profile: Profile = "hopkit", train: Dataset | None = None,
                 demos: DemoSet | None = None, **given: Any) -> None:
        super().__init__()
        if demos is not None and train is not None:
            raise InputError("give IRCoT either train (demonstrations built from it) or demos (built ones), not both")
        self.retriever, self.profile = counted(retriever), profile
        self.method_name = "ircot"  # the registry's name, which a run spec records
        self.knobs = knobs = program_knobs("ircot", profile, given, owner="IRCoT")
        self.answer_steps = AnswerSteps.from_knobs(knobs)
        self.reason = dspy.Predict(ContinueReasoning)
        self.read_cot = dspy.Predict(reader_as_asked(ChainAnswer, knobs))
        self.read_direct = dspy.Predict(reader_as_asked(ContextAnswer, knobs))
        if train is not None:
            demos = demos_for(train, knobs)
        if demos is not None:
            self.reason.demos, self.read_cot.demos, self.read_direct.demos = (
                demos.reason, demos.cot_reader, demos.direct_reader)

    def forward(self, question: str) -> dspy.Prediction:
        return self.read(question, self.collect(question))

    def collect(self, question: str) -> Collected:
        """The interleaved chain and the paragraphs it collected; the reader does not take part, so one chain serves
        every reader at the same retrieval knobs (the reproduce grid reads it with both, hopkit/reproduce/)."""
        knobs = self.knobs
        collection = _Collection(knobs.cap, knobs.paragraph_words)
        retrieved_for: dict[str, list[Passage]] = {}  # per-question cache: a repeated query is not re-run

        def retrieve(query: str) -> list[str]:
            if query not in retrieved_for:
                retrieved_for[query] = self.retriever.retrieve(query, knobs.k)
            return collection.add(retrieved_for[query])

        steps: list[dict[str, Any]] = [{"step": 0, "sentence": None, "query": question, "added": retrieve(question),
                  "retrieved": [p.pid for p in retrieved_for[question]], "cost": {}}]
        sentences: list[str] = []
        stop = None
        for step in range(1, knobs.max_steps + 1):
            record, generated = self._reason_step(step, question, collection, sentences)
            stop = _stop_reason(record, generated, sentences, knobs.stop_on_repeat)
            if stop is not None:  # a repeated sentence is recorded as no sentence
                steps.append({**record, "sentence": None} if stop == "repeat" else record)
                break
            sentence = record["sentence"]
            sentences.append(sentence)
            if says_answer(sentence):
                steps.append(record)
                stop = "answer_is"
                break
            added = retrieve(sentence)  # the sentence is the next query
            steps.append({**record, "query": sentence, "added": added,
                          "retrieved": [p.pid for p in retrieved_for[sentence]]})
        return Collected(collection, sentences, steps, stop or "max_steps")

    def read(self, question: str, collected: Collected) -> dspy.Prediction:
        """The separate reader on a collected chain, and the prediction with its trace."""
        answer, reader_trace = self._answer(question, collected.collection, collected.sentences)
        pids = [p.pid for p in collected.collection.passages]
        trace = {"method": "ircot", "profile": self.profile, "stands_in": stand_ins("ircot", self.profile),
                 "knobs": dict(self.knobs), "reader": self.reader_mode, "stop": collected.stop,
                 "steps": collected.steps, "chain": collected.sentences, "reader_output": reader_trace}
        return hop_prediction(answer, citations=pids, retrieved=pids, trace=trace)

    def _reason_step(self, step: int, question: str, collection: _Collection,
                     sentences: list[str]) -> tuple[dict, list[str]]:
        """One reason step: the chain continued, the first new sentence kept (a parse failure is recorded)."""
        before = _usage_now()
        try:
            raw = self.reason(context=collection.formatted, question=question,
                              reasoning_so_far=" ".join(sentences), config=self._step_config(),
                              **without_own_example(self.reason, question)).continuation
        except AdapterParseError as error:  # counted; the paragraphs collected so far go to the reader
            return {"step": step, "sentence": None, "parse_error": str(error)[:300], "cost": _delta(before)}, []
        generated = split_sentences(raw or "")
        sentence, restated = first_new_sentence(generated, [question, *sentences]) if self.knobs.skip_restated else (
            (generated[0], 0) if generated else ("", 0))
        return {"step": step, "sentence": sentence, "generated": raw, "restated": restated, "query": None,
                "added": [], "retrieved": [], "cost": _delta(before)}, generated

    def _answer(self, question: str, collection: _Collection, sentences: list[str]) -> tuple[str, dict]:
        """The separate reader's answer (the chain's own with no reader), then the answer steps of hopkit/additions/
        on it, so "w/o reader" differs from IRCoT in the reader alone."""
        try:
            answer, reader_trace = self._read(question, collection, sentences)
        except AdapterParseError as error:  # counted; the chain's own answer, if it gave one, stands in
            answer, said = extract_answer(" ".join(sentences))
            answer = answer if said else ""
            reader_trace = {"mode": self.reader_mode, "parse_error": str(error)[:300], "parsed": False}
        reasoning = " ".join(sentences) if self.reader_mode == "none" else (
            (reader_trace.get("generation") or "") if self.reader_mode == "cot" else "")
        reader_trace["answer_before_steps"] = answer
        answer, records = self.answer_steps(question, answer, reasoning, collection.formatted)
        reader_trace.update(records)
        return answer, reader_trace

    def _step_config(self) -> dict:
        """One step keeps one new sentence; what follows the first is never used (0: no cap of ours)."""
        most = self.knobs.step_tokens
        return {"max_tokens": most} if most else {}

    @property
    def reader_mode(self) -> ReaderMode:
        return self.knobs.answer_reader

    def _read(self, question: str, collection: _Collection, sentences: list[str]) -> tuple[str, dict]:
        before = _usage_now()
        if self.reader_mode == "none":  # ablation: the answer comes from the retrieval-time chain
            answer, parsed = extract_answer(" ".join(sentences))
            return answer, {"mode": "none", "parsed": parsed}
        if self.reader_mode == "cot":
            out = self.read_cot(context=collection.formatted, question=question,
                                **without_own_example(self.read_cot, question))
            reasoning, answer = out.reasoning or "", (out.answer or "").strip()
            parsed = bool(answer)
            if not answer:  # the paper's rule when no answer was given: after "answer is", else everything
                answer, parsed = extract_answer(reasoning)
            return answer, {"mode": "cot", "generation": reasoning, "answer_field": out.answer, "parsed": parsed,
                            "cost": _delta(before)}
        answer = self.read_direct(context=collection.formatted, question=question,
                                  **without_own_example(self.read_direct, question)).answer or ""
        return answer, {"mode": "direct", "generation": answer, "parsed": True, "cost": _delta(before)}


def _stop_reason(record: dict, generated: list[str], sentences: list[str], on_repeat: bool) -> str | None:
    """Why the chain stops after this step (None: it goes on): the paper stops at "answer is" or the step limit; a
    parse failure, an empty generation, or nothing new also end it, and (a knob) a restated first sentence."""
    if "parse_error" in record:
        return "reason_parse_failure"
    if not generated:
        return "empty_sentence"
    if on_repeat and repeats(generated[0], sentences):
        return "repeat"
    return None if record["sentence"] else "nothing_new"


documented(IRCoT, "ircot")
