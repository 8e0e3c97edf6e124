"""Tree of Reviews' written query (knob ``query_fallback``; an addition, off in ``paper``).

A small reviewer often decides to search but writes no query, or the question again; the paper does not expand
such a node. Here a search query is written for it from the path's paragraphs and what the review found missing
(docs/design/additions.md#query_fallback)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dspy.utils.exceptions import AdapterParseError

from hopkit.text.normalize import normalize_answer


def real_query(query: str | None, question: str) -> bool:
    """A query that is neither empty nor the question again."""
    norm = normalize_answer(query or "")
    return bool(norm) and norm != normalize_answer(question)


class WrittenQuery:
    """Takes a real query only, and writes one where the review gave none."""

    accepts = staticmethod(real_query)

    def __call__(self, write_query: Callable[..., Any], take_step: Callable[[], bool], question: str,
                 paragraphs: list[str], missing: str) -> tuple[str | None, str | None]:
        """The written query and its source: ``written``, ``none`` when nothing real came, None when the budget
        was spent first."""
        if not take_step():
            return None, None
        try:
            query = write_query(question=question, paragraphs=paragraphs, missing=missing).query
        except AdapterParseError:
            query = ""
        query = (query or "").strip()
        return (query, "written") if real_query(query, question) else (None, "none")
