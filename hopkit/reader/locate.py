"""Finding an extracted answer inside its passage."""

from __future__ import annotations

import re


def locate(span: str, text: str) -> tuple[int, int]:
    """Character offsets of ``span`` in ``text``: exact first, then case- and spacing-insensitive."""
    span = span.strip().strip('"').strip()
    if not span:
        return -1, -1
    start = text.find(span)
    if start >= 0:
        return start, start + len(span)
    pattern = r"\s+".join(re.escape(word) for word in span.split())
    match = re.search(pattern, text, re.IGNORECASE)
    return (match.start(), match.end()) if match else (-1, -1)
