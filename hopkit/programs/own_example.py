"""A question is never shown its own example as a demonstration.

When demonstrations and test questions come from the same file (IRCoT's demonstration files are
both), a predictor's demonstrations can hold the very question being answered, with its answer.
Programs call their predictors with ``**without_own_example(predictor, question)``: the call then
runs on the other demonstrations, and every other question keeps the shared, cached prompt.
"""

from __future__ import annotations

from typing import Any

import dspy


def _key(text: Any) -> str:
    return " ".join(str(text or "").lower().split())


def without_own_example(predictor: dspy.Predict, question: str) -> dict[str, Any]:
    """``{}`` when no demonstration asks ``question``; else ``{"demos": [the others]}`` for the call."""
    demos = list(getattr(predictor, "demos", None) or [])
    kept = [demo for demo in demos if _key(demo.get("question")) != _key(question)]
    return {} if len(kept) == len(demos) else {"demos": kept}
