"""The one prediction shape every program returns."""

from __future__ import annotations

from typing import Any

import dspy


def hop_prediction(answer: str, citations: list[str], retrieved: list[str], trace: dict[str, Any]) -> dspy.Prediction:
    """``answer``; ``citations``: pids the answer rests on; ``retrieved``: every pid seen, best
    first (recall@15 reads its first 15); ``trace``: what the program did, step by step."""
    return dspy.Prediction(answer=(answer or "").strip(), citations=list(citations), retrieved=list(retrieved),
                           trace=trace)
