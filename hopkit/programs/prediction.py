"""The one prediction shape every program returns."""

from __future__ import annotations

import re
from typing import Any

import dspy

# A small LM sometimes writes DSPy's end marker on the answer's own line; it is not part of the answer.
_FIELD_MARKER = re.compile(r"\[\[ ## \w+ ## \]\]")


def clean_answer(answer: str | None) -> str:
    return _FIELD_MARKER.sub("", answer or "").strip()


def hop_prediction(answer: str, citations: list[str], retrieved: list[str], trace: dict[str, Any]) -> dspy.Prediction:
    """``answer``; ``citations``: pids the answer rests on; ``retrieved``: every pid seen, best
    first (recall@15 reads its first 15); ``trace``: what the program did, step by step."""
    return dspy.Prediction(answer=clean_answer(answer), citations=list(citations), retrieved=list(retrieved),
                           trace=trace)
