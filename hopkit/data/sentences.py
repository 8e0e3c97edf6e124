"""Splitting text into sentences: the reasoning chains of datasets and of LM outputs."""

from __future__ import annotations

import re

# A sentence ends at . ! ? followed by space and a capital, unless the period closes an initial
# ("F. W.") or a common abbreviation.
_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
_ABBREVIATIONS = {"mr.", "mrs.", "ms.", "dr.", "st.", "jr.", "sr.", "no.", "vs.", "co.", "inc.", "ltd.", "mt."}


def split_sentences(text: str) -> list[str]:
    """Sentences of a text, split at . ! ? before a capital, not after initials or abbreviations."""
    text = " ".join((text or "").split())
    sentences, start = [], 0
    for match in _BOUNDARY.finditer(text):
        head = text[start:match.start()]
        last_word = head.rsplit(" ", 1)[-1].lower()
        if re.fullmatch(r"(?:[a-z]\.)+", last_word) or last_word in _ABBREVIATIONS:
            continue
        sentences.append(head.strip())
        start = match.end()
    if text[start:].strip():
        sentences.append(text[start:].strip())
    return sentences


def first_sentence(text: str) -> str:
    sentences = split_sentences(text)
    return sentences[0] if sentences else ""
