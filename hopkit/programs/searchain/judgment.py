"""IR's decision for one node of a Chain-of-Query (the paper's Algorithm 1, function IR)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

from hopkit.programs.searchain.tree import COMPLETED, CORRECTED, PASS, UNANSWERED, UNSOLVED_KEPT
from hopkit.reader.lm_reader import repeats_query
from hopkit.text.normalize import normalize_answer
from hopkit.text.similarity import rouge_l

AnswerForm = Literal["short", "long"]
NoAnswer = Literal["go_on", "feedback"]


def disagrees(lm_answer: str, reader_answer: str, document: str, answer_form: AnswerForm, alpha: float) -> bool:
    """Short answers: the reader's answer does not appear in the LM's. Long-form answers: ROUGE-L
    between the LM's answer and the document is below alpha. An empty reader answer cannot disagree."""
    if answer_form == "long":
        return rouge_l(lm_answer, document) < alpha
    reader_norm = normalize_answer(reader_answer)
    if not reader_norm:
        return False
    return f" {reader_norm} " not in f" {normalize_answer(lm_answer)} "


def conflicts(new_answer: str, recorded: str) -> bool:
    """A repeated query's new answer says something other than the recorded one: neither contains the
    other after normalisation (an empty answer conflicts with nothing)."""
    new, old = normalize_answer(new_answer), normalize_answer(recorded)
    if not new or not old:
        return False
    return f" {new} " not in f" {old} " and f" {old} " not in f" {new} "


def judge(unsolved: bool, lm_answer: str, reader_answer: str, confidence: float | None, document: str, *,
          theta: float, alpha: float, answer_form: AnswerForm, verify: bool = True, complete: bool = True,
          no_answer: NoAnswer = "feedback", query: str = "") -> str:
    """The node's action: completion for every unsolved node whatever the confidence; correction
    only when the reader is confident (f > theta) and disagrees; otherwise the node passes.
    An unsolved node whose reader found no answer (nothing, or only words of the query itself) is completed
    all the same (``feedback``: the paper's DPR reader always returns a span) or stays unsolved while IR goes
    on to the next node (``go_on``)."""
    if unsolved:
        if not complete:
            return UNSOLVED_KEPT
        if no_answer == "go_on" and (not normalize_answer(reader_answer) or repeats_query(reader_answer, query)):
            return UNANSWERED
        return COMPLETED
    if verify and confidence is not None and confidence > theta and disagrees(
            lm_answer, reader_answer, document, answer_form, alpha):
        return CORRECTED
    return PASS


def probability_confidence(score: float | None, scale: str) -> float | None:
    """Reader confidence on one scale, so that one theta serves every reader: a logit (DPR's
    relevance score, as in the paper) goes through a sigmoid; a probability stays as it is."""
    if score is None:
        return None
    if scale == "logit":
        return 1.0 / (1.0 + math.exp(-score))
    return score


JUDGING = ("theta", "alpha", "answer_form", "no_answer")  # the knobs ``judge`` reads


def judged_by(knobs: Mapping[str, Any]) -> dict[str, Any]:
    """The judging knobs of a program's resolved knobs, as ``judge`` takes them."""
    return {name: knobs[name] for name in JUDGING}
