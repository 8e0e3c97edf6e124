"""Every tunable knob of every program, declared once with its default and range.

Programs take their defaults from here and validate values against the ranges;
the optimizer reads the same declarations to build its search space.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hopkit.errors import InputError


@dataclass(frozen=True)
class Knob:
    """A numeric knob has ``low``/``high`` (and ``step`` for ints); a categorical one ``choices``."""

    name: str
    default: Any
    doc: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: Sequence[Any] | None = None
    builds_demos: bool = False  # only shapes the demonstrations a program builds from train

    def check(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise InputError(f"{self.name}={value!r} is not one of {list(self.choices)}")
            return value
        if self.low is not None and self.high is not None and not (self.low <= value <= self.high):
            raise InputError(f"{self.name}={value!r} is outside its range [{self.low}, {self.high}]")
        return value


# Words of each paragraph a reader or reasoner sees, for OneR and IRCoT alike, so that no method
# reads a shorter version of the same evidence than the baseline it is compared with.
PARAGRAPH_WORDS = 120

# Shared by every method that answers: the answer-form check of hopkit/programs/yes_no_check.py.
YES_NO_CHECK = Knob("yes_no_check", True, "addition: when a yes/no question gets an answer that is neither yes nor "
                    "no, one short call decides yes or no from the reader's reasoning or paragraphs",
                    choices=(True, False))
# Shared likewise: the either-or check of hopkit/programs/option_check.py.
OPTION_CHECK = Knob("option_check", True, "addition: when an either-or question gets an answer that names neither "
                    "option (or both), one short call picks an option; an answer naming one becomes that option",
                    choices=(True, False))

KNOBS: dict[str, dict[str, Knob]] = {
    "oner": {
        "k": Knob("k", 8, "paragraphs retrieved with the question as the query (IRCoT tunes 5..15)", 1, 15, 1),
        "yes_no_check": YES_NO_CHECK,
        "option_check": OPTION_CHECK,
    },
    "ircot": {
        "k": Knob("k", 4, "paragraphs retrieved per step (the paper tunes K in {2, 4, 6, 8})", 1, 10, 1),
        "cap": Knob("cap", 15, "most paragraphs collected per question (15 in the paper)", 1, 30, 1),
        "max_steps": Knob("max_steps", 8, "most reasoning sentences (8 in the paper)", 1, 12, 1),
        "answer_reader": Knob("answer_reader", "cot", "separate reader: cot, direct, or none (answer from the chain)",
                       choices=("cot", "direct", "none")),
        "m_distractors": Knob("m_distractors", 2, "distractors per demonstration (the paper's M)", 1, 3, 1,
                              builds_demos=True),
        "balance_openings": Knob("balance_openings", True, "addition: demonstrations taken round-robin over their "
                                 "questions' openings, so one template cannot fill the budget (false: the paper's "
                                 "random choice)", choices=(True, False), builds_demos=True),
        "stop_on_repeat": Knob("stop_on_repeat", False, "also stop when the model's first sentence repeats one "
                               "the chain holds, instead of going on to its first new sentence (not in the paper, "
                               "which stops only at 'answer is' or max_steps)", choices=(False, True)),
        "yes_no_check": YES_NO_CHECK,
        "option_check": OPTION_CHECK,
    },
    "searchain": {
        "theta": Knob("theta", 0.82, "reader confidence above which a disagreeing reference corrects a node, on a "
                      "probability scale; the paper's 1.5 on DPR's relevance logit is sigmoid(1.5) = 0.82. Left unset, "
                      "a reader that declares a calibrated_theta (its own calibration's choice, as the paper tuned "
                      "theta for its reader) sets it: the LM reader's answerability confidence 0.5", 0.0, 1.0),
        "alpha": Knob("alpha", 0.35, "ROUGE-L between a long-form answer and its document below which they "
                      "disagree (0.35 in the paper)", 0.0, 1.0),
        "r_max": Knob("r_max", 5, "most rounds of LM-IR interaction (5 in the paper)", 1, 10, 1),
        "k": Knob("k", 1, "documents retrieved per node; the reader reads them all (top-1 in the paper)", 1, 5, 1),
        "dup_threshold": Knob("dup_threshold", 0.9, "ROUGE-L between two queries at or above which the later one "
                              "counts as already processed", 0.5, 1.0),
        "answer_form": Knob("answer_form", "short", "short: verify by containment of the reader's answer; long: by "
                            "ROUGE-L against alpha", choices=("short", "long")),
        "answer_from": Knob("answer_from", "last_chain", "last_chain (addition): the final answer and content come from "
                            "the last chain with IR's answers put in; path: tracing over every node IR processed "
                            "(Algorithm 1's R)", choices=("last_chain", "path")),
        "duplicates": Knob("duplicates", "rejudge", "skip: every processed query is skipped (the paper); rejudge "
                           "(addition): a repeat whose answer conflicts with the recorded one is judged again against "
                           "its recorded reading, and an unsolved query is never skipped", choices=("skip", "rejudge")),
        "decompose_retry": Knob("decompose_retry", True, "addition: when the first chain is one node that restates the "
                                "question, ask once more for a decomposition", choices=(True, False)),
        "short_form": Knob("short_form", True, "addition: a final answer written as a sentence (5 words or more) to "
                           "a question that is not yes/no gets one short call that copies the answering phrase out of "
                           "it; the phrase stands only if it is in the sentence (off for long-form answers)",
                           choices=(True, False)),
        "no_answer": Knob("no_answer", "go_on", "an unsolved node whose reader finds no answer in its document (none, "
                          "or a span that only repeats the query): go_on (addition) keeps it unsolved and IR goes on "
                          "to the next node; feedback completes it all the same, ending the round (the paper's DPR "
                          "reader always returns a span)",
                          choices=("go_on", "feedback")),
        "yes_no_check": YES_NO_CHECK,
        "option_check": OPTION_CHECK,
    },
    "tor": {
        "depth": Knob("depth", 3, "layers of paragraphs below the question (3 in the paper)", 1, 4, 1),
        "width_1": Knob("width_1", 5, "paragraphs retrieved with the question (5 in the paper)", 1, 10, 1),
        "width_2": Knob("width_2", 3, "paragraphs per new query in layer 2 (3 in the paper)", 1, 10, 1),
        "width_3": Knob("width_3", 3, "paragraphs per new query in layer 3 (3 in the paper)", 1, 10, 1),
        "width_4": Knob("width_4", 3, "paragraphs per new query in layer 4 (3 in the paper's depth-4 run)", 1, 10, 1),
        "expansion": Knob("expansion", "mpc", "new queries: direct, cot (think about what is missing first) or mpc "
                          "(the LM writes the missing paragraph, which is the query); the paper's ToR uses mpc",
                          choices=("direct", "cot", "mpc")),
        "fusion": Knob("fusion", "evidence", "the reader reads the analyses, the paragraphs, or both (evidence)",
                       choices=("analysis", "paragraph", "evidence")),
        "relevance_pruning": Knob("relevance_pruning", True, "do not expand paragraphs reviewed as irrelevant",
                                  choices=(True, False)),
        "repetitive_pruning": Knob("repetitive_pruning", True, "do not review or expand a retrieved paragraph "
                                   "already in the evidence pool", choices=(True, False)),
        "budget": Knob("budget", 11, "most LM calls per question before the search stops and fuses, so at most "
                       "budget + 1 calls in all; 0: no limit (the paper's search, 16.9 calls on average there). An "
                       "addition: unbounded, a 1.5B reviewer that rightly finds one paragraph insufficient for a "
                       "comparison expands every path, up to 85 calls", 0, 100, 1),
        "check_accept": Knob("check_accept", True, "addition: an accept whose short answer is not in the paragraphs "
                             "on its path (yes/no: fewer than two paragraphs) searches on instead",
                             choices=(True, False)),
        "check_reject": Knob("check_reject", True, "addition: a reject of a paragraph whose title names one of an "
                             "either-or question's two options searches on instead (the paragraph is one side of the "
                             "comparison); the 1.5B rejected such paragraphs as not enough to answer",
                             choices=(True, False)),
        "rerank": Knob("rerank", "retriever", "how more than 15 pool paragraphs are ranked against the response: "
                       "retriever (the retriever's own similarity, as the paper) or token_f1 (lexical overlap)",
                       choices=("retriever", "token_f1")),
        "mpc_query": Knob("mpc_query", "whole", "the MPC paragraph as the query: whole (the paper; ColBERT still "
                          "cuts it at its query length) or first_sentence (cut on purpose)",
                          choices=("whole", "first_sentence")),
        "yes_no_check": YES_NO_CHECK,
        "option_check": OPTION_CHECK,
    },
}


def knob(method: str, name: str) -> Knob:
    return KNOBS[method][name]


def parse_knobs(pairs: list[str]) -> dict[str, bool | float | int | str]:
    """``["k=8", "answer_reader=direct", "verify=false"]`` -> typed values (bool, int, float, else str)."""
    knobs: dict[str, bool | float | int | str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise InputError(f"--set expects name=value, got {pair!r}")
        knobs[name] = _value(value)
    return knobs


def _value(value: str) -> bool | float | int | str:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return value
