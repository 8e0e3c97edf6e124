"""One paragraphs review: relevant? sufficient? then reject, search (with a query) or accept (with an analysis).

The typed signature is tried first; when its output cannot be parsed, the paper's markers
([RELEVANT]/[IRRELEVANT], [SUPPORTED]/[UNSUPPORTED], [ANSWER]/[QUERY]) are read from the raw text.
An output that gives neither is a parse failure: counted, and the node is rejected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.programs.own_example import without_own_example
from hopkit.signatures.tree_of_reviews import ReviewParagraphs, ReviewParagraphsReasoned, ReviewParagraphsStepByStep

Action = Literal["reject", "search", "accept"]

REJECT: Action = "reject"
SEARCH: Action = "search"
ACCEPT: Action = "accept"


@dataclass(frozen=True)
class Review:
    relevant: bool
    sufficient: bool
    output: str
    parse: str  # "typed", "markers" or "failed"
    reasoning: str = ""  # the thought written before the judgments (the reasoned and step-by-step reviews)
    answer: str = ""  # the short answer of an accept

    @property
    def action(self) -> Action:
        """The paper's step 3: irrelevant -> reject; relevant, not sufficient -> search; sufficient -> accept."""
        if not self.relevant:
            return REJECT
        return ACCEPT if self.sufficient else SEARCH


def review(step: dspy.Predict, question: str, paragraphs: list[str]) -> Review:
    try:
        out = step(question=question, paragraphs=paragraphs, **without_own_example(step, question))
        reasoning = getattr(out, "reasoning", None) or getattr(out, "sufficiency_thought", None) or ""
        return Review(bool(out.relevant), bool(out.sufficient), (out.output or "").strip(), "typed",
                      str(reasoning).strip(), str(getattr(out, "answer", "") or "").strip())
    except AdapterParseError as error:
        return read_markers(str(error.lm_response or ""))


_FIELD = re.compile(r"\[\[ ## (\w+) ## \]\]\s*(.*?)(?=\[\[ ## \w+ ## \]\]|\Z)", re.S)


def read_markers(text: str) -> Review:
    """A review from loose text: DSPy field sections with loose values, or the paper's bracket markers."""
    fields = {name: value.strip() for name, value in _FIELD.findall(text)}
    upper = text.upper()
    relevant = _flag(fields.get("relevant"), upper, "[RELEVANT]", "[IRRELEVANT]")
    sufficient = _flag(fields.get("sufficient"), upper, "[SUPPORTED]", "[UNSUPPORTED]")
    output, reasoning = fields.get("output", ""), fields.get("reasoning", fields.get("sufficiency_thought", ""))
    marker = re.search(r"\[(ANSWER|QUERY)\]\s*:?\s*(.+)", text, re.I | re.S)
    if not output and marker:
        output = marker.group(2).strip().splitlines()[0]
        if sufficient is None:
            sufficient = marker.group(1).upper() == "ANSWER"
    if relevant is None and sufficient is None:
        return Review(False, False, "", "failed")
    relevant = bool(relevant) or bool(sufficient)  # sufficient paragraphs are relevant ones
    return Review(relevant, bool(sufficient), output.strip(), "markers", reasoning.strip(),
                  fields.get("answer", "").strip())


def _flag(value: str | None, upper: str, yes: str, no: str) -> bool | None:
    if value is not None:
        low = value.strip().lower()
        if low.startswith(("true", "yes", yes.lower())):
            return True
        if low.startswith(("false", "no", no.lower())):
            return False
    if no in upper:
        return False
    if yes in upper:
        return True
    return None


def review_signature(knobs: Mapping[str, Any]) -> type[dspy.Signature]:
    """Direct: the paper's review without thoughts (Table 8); CoT: its step-by-step review (Table 7); MPC: the
    paper pairs the missing-paragraph step (Table 9) with the review without thoughts (``mpc_review=plain``);
    hopkit's default reviews reasoning first (``reasoning_first``)."""
    if knobs["expansion"] == "mpc":
        return ReviewParagraphsReasoned if knobs["mpc_review"] == "reasoning_first" else ReviewParagraphs
    return {"direct": ReviewParagraphs, "cot": ReviewParagraphsStepByStep}[knobs["expansion"]]
