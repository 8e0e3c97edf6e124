"""SQuAD answer normalisation, shared by every answer metric."""

from __future__ import annotations

import re
import string

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = set(string.punctuation)


def normalize_answer(text: str) -> str:
    """Lower-case, drop punctuation and articles, collapse whitespace (SQuAD v1.1)."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def covers(prediction: str, gold: str) -> bool:
    """SearChain's cover-EM: the normalised gold answer appears inside the normalised prediction."""
    gold_norm = normalize_answer(gold)
    return bool(gold_norm) and f" {gold_norm} " in f" {normalize_answer(prediction)} "


def answer_tokens(text: str) -> list[str]:
    return normalize_answer(text).split()
