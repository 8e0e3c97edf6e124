"""SearChain's theta when it is left to the reader (the knob's value None, in both profiles)."""

from __future__ import annotations

from typing import Any

from hopkit.knobs.declared import knob
from hopkit.knobs.values import KnobValues

PAPER_THETA = 0.82  # the paper's 1.5 on DPR's relevance logit, as a probability: sigmoid(1.5)


def default_theta(reader: Any) -> float:
    """The value the reader's own calibration suggests, where it declares one (the paper tuned theta for its DPR
    reader by the F1 of judging whether a passage answers; the same sweep on the LM reader's answerability
    confidence gives 0.5), else the paper's 0.82 on a probability scale."""
    calibrated = getattr(reader, "calibrated_theta", None)
    return PAPER_THETA if calibrated is None else calibrated


def with_reader_theta(knobs: KnobValues, reader: Any) -> KnobValues:
    """The knobs with theta decided: the value given, else the reader's calibrated one (checked as the knob)."""
    if knobs["theta"] is not None:
        return knobs
    return knobs.replace(theta=knob("searchain", "theta").check(default_theta(reader)))
