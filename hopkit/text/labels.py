"""Canonical answers of the closed-answer tasks: a claim's label and a yes/no.

A claim's label is read by words, never by substring: "NOT SUPPORTS" is a refutation, not a support.
"""

from __future__ import annotations

from hopkit.text.normalize import normalize_answer

SUPPORTS, REFUTES = "SUPPORTS", "REFUTES"
_NEGATIVE = {"refutes", "refute", "refuted", "false", "no", "not", "incorrect", "wrong", "contradicts", "contradicted"}
_POSITIVE = {"supports", "support", "supported", "true", "yes", "correct", "confirmed", "confirms"}


def claim_label(text: str) -> str | None:
    """SUPPORTS, REFUTES, or None when the text states neither."""
    words = set(normalize_answer(text).split())
    if words & _NEGATIVE:
        return REFUTES
    if words & _POSITIVE:
        return SUPPORTS
    return None


def yes_no(text: str) -> str | None:
    """"yes", "no", or None; the first yes/no word decides ("No, it was not" is no)."""
    for word in normalize_answer(text).split():
        if word in ("yes", "true"):
            return "yes"
        if word in ("no", "false", "not"):
            return "no"
    return None
