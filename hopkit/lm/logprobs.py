"""Confidence of a generated value from the token log-probabilities of its completion."""

from __future__ import annotations

import math
from typing import Any


def _tokens(logprobs: Any) -> list[tuple[str, float]]:
    """Accepts DSPy's ``{"content": [{"token", "logprob"}, ...]}`` or a plain list of such items."""
    content = logprobs.get("content") if isinstance(logprobs, dict) else getattr(logprobs, "content", logprobs)
    out = []
    for item in content or []:
        token = item["token"] if isinstance(item, dict) else item.token
        logprob = item["logprob"] if isinstance(item, dict) else item.logprob
        out.append((token, float(logprob)))
    return out


def value_confidence(logprobs: Any, value: str) -> float | None:
    """exp(mean log-probability) of the tokens that wrote ``value`` (its last occurrence).

    The completion is rebuilt from its tokens, ``value`` is located in it, and every token
    overlapping that character range counts. ``None`` when there are no log-probabilities
    or the value cannot be found in the completion.
    """
    tokens = _tokens(logprobs) if logprobs is not None else []
    if not tokens or not value:
        return None
    text = "".join(token for token, _ in tokens)
    start = text.rfind(value)
    if start < 0:
        return None
    end = start + len(value)
    picked, offset = [], 0
    for token, logprob in tokens:
        token_end = offset + len(token)
        if token_end > start and offset < end:
            picked.append(logprob)
        offset = token_end
    return math.exp(sum(picked) / len(picked)) if picked else None
