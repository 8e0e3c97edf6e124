"""Sentence handling for IRCoT: keep the first generated sentence, find "answer is", extract answers."""

from __future__ import annotations

import re

# A sentence ends at . ! ? followed by space and a capital, unless the period closes an initial
# ("F. W.") or a common abbreviation.
_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
_ABBREVIATIONS = {"mr.", "mrs.", "ms.", "dr.", "st.", "jr.", "sr.", "no.", "vs.", "co.", "inc.", "ltd.", "mt."}


def first_sentence(text: str) -> str:
    text = " ".join((text or "").split())
    start = 0
    for match in _BOUNDARY.finditer(text):
        head = text[start:match.start()]
        last_word = head.rsplit(" ", 1)[-1].lower()
        if re.fullmatch(r"(?:[a-z]\.)+", last_word) or last_word in _ABBREVIATIONS:
            continue
        return head.strip()
    return text.strip()


def says_answer(sentence: str) -> bool:
    return "answer is" in sentence.lower()


def extract_answer(generation: str) -> tuple[str, bool]:
    """The text after the last "answer is[:]", without a final period; else the whole generation.

    Returns (answer, parsed): ``parsed`` is False when the paper's fallback (the whole generation) was used.
    """
    text = " ".join((generation or "").split())
    at = text.lower().rfind("answer is")
    if at < 0:
        return text, False
    return text[at + len("answer is"):].lstrip(" :").rstrip(" .").strip(), True
