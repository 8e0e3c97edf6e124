"""Choosing a reader by name: ``lm`` (the configured LM) or ``extractive:<model name or path>``."""

from __future__ import annotations

from hopkit.errors import InputError
from hopkit.reader.protocol import Reader


def open_reader(spec: str) -> Reader:
    if spec == "lm":
        from hopkit.reader.lm_reader import LMReader

        return LMReader()
    if spec.startswith("extractive:") and spec.removeprefix("extractive:"):
        from hopkit.reader.extractive import ExtractiveReader

        return ExtractiveReader(spec.removeprefix("extractive:"))
    raise InputError(f"unknown reader {spec!r}; use lm or extractive:<model name or path>")
