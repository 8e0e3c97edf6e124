"""Whether a text names a paragraph's title (without its parenthesised disambiguation, "Lit (band)" -> "Lit")."""

from __future__ import annotations

import re

from hopkit.text.normalize import normalize_answer


def title_named(title: str, text: str) -> bool:
    """The bare title, normalised, occurs in the normalised text as whole words."""
    bare = normalize_answer(re.sub(r"\s*\(.*?\)", "", title))
    return bool(bare) and f" {bare} " in f" {normalize_answer(text)} "
