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


_TRUE = {"true", "yes"}
_FALSE = {"false", "no"}


def judgment_probability(logprobs: Any, field: str) -> float | None:
    """P(true) of a boolean output field, from the token that wrote its value.

    The value is the first token after the field's ``[[ ## field ## ]]`` header (ChatAdapter) or
    ``"field":`` key (JSON). With top alternatives, P(true) is the mass on true/yes over the mass on
    true/yes and false/no; with the chosen token alone, p or 1 - p. ``None`` when the value token is
    not found or is neither true nor false.
    """
    items = _items(logprobs) if logprobs is not None else []
    if not items:
        return None
    text = "".join(token for token, _, _ in items)
    after = _value_start(text, field)
    if after < 0:
        return None
    offset = 0
    for token, logprob, top in items:
        token_end = offset + len(token)
        if offset >= after and token.strip():
            chosen = _polarity(token)
            if top:
                p_true = sum(math.exp(lp) for t, lp in top if _polarity(t) is True)
                p_false = sum(math.exp(lp) for t, lp in top if _polarity(t) is False)
                if p_true + p_false > 0:
                    return p_true / (p_true + p_false)
            if chosen is None:
                return None
            return math.exp(logprob) if chosen else 1.0 - math.exp(logprob)
        offset = token_end
    return None


def _value_start(text: str, field: str) -> int:
    """Where a field's value begins in the completion: after its ChatAdapter header or its JSON key."""
    header = text.rfind(f"## {field} ##")
    if header >= 0:
        close = text.find("]]", header)
        return close + 2 if close >= 0 else -1
    key = text.rfind(f'"{field}"')
    colon = text.find(":", key) if key >= 0 else -1
    return colon + 1 if colon >= 0 else -1


def _polarity(token: str) -> bool | None:
    word = token.strip().strip('"').lower()
    return True if word in _TRUE else False if word in _FALSE else None


def _items(logprobs: Any) -> list[tuple[str, float, list[tuple[str, float]]]]:
    """(token, logprob, top alternatives) per generated token."""
    content = logprobs.get("content") if isinstance(logprobs, dict) else getattr(logprobs, "content", logprobs)
    out = []
    for item in content or []:
        top = [(_field(t, "token"), float(_field(t, "logprob")))
               for t in (_field(item, "top_logprobs") or _field(item, "top") or [])]
        out.append((_field(item, "token"), float(_field(item, "logprob")), top))
    return out


def _field(item: Any, key: str) -> Any:
    """A field of a log-probability entry, a dict (OpenAI's JSON) or an object (DSPy's)."""
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)
