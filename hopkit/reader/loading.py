"""Choosing a reader by name: ``lm`` (the configured LM; ``lm:span`` for the older span-probability
confidence) or ``extractive:<model name or path>``."""

from __future__ import annotations

from hopkit.errors import InputError
from hopkit.reader.protocol import Reader


def open_reader(spec: str) -> Reader:
    if spec == "lm" or spec.startswith("lm:"):
        from hopkit.reader.lm_reader import CONFIDENCES, LMReader

        asked = spec.removeprefix("lm:") if spec.startswith("lm:") else "answerability"
        confidence = next((known for known in CONFIDENCES if known == asked), None)
        if confidence is None:
            raise InputError(f"unknown LM-reader confidence {asked!r}; use lm, "
                             + ", ".join(f"lm:{c}" for c in CONFIDENCES))
        return LMReader(confidence=confidence)
    if spec.startswith("extractive:") and spec.removeprefix("extractive:"):
        from hopkit.reader.extractive import ExtractiveReader

        return ExtractiveReader(spec.removeprefix("extractive:"))
    raise InputError(f"unknown reader {spec!r}; use lm, lm:span or extractive:<model name or path>")
