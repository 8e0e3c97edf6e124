"""The unit of retrieval: a passage with a stable id, and its rank when retrieved."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Passage:
    """A corpus paragraph. ``score`` and ``rank`` are set when a retriever returns it."""

    pid: str
    title: str
    text: str
    score: float | None = None
    rank: int | None = None

    def ranked(self, rank: int, score: float) -> Passage:
        return replace(self, rank=rank, score=score)

    def as_context(self, max_words: int | None = None) -> str:
        """Title plus text in the Wikipedia style the papers' prompts use."""
        text = self.text
        if max_words:  # None or 0: the whole paragraph
            words = text.split()
            if len(words) > max_words:
                text = " ".join(words[:max_words]) + " ..."
        return f"Wikipedia Title: {self.title}\n{text}"

    def to_dict(self) -> dict:
        row: dict[str, Any] = {"pid": self.pid, "title": self.title, "text": self.text}
        if self.rank is not None:
            row.update(rank=self.rank, score=self.score)
        return row
