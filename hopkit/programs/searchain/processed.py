"""Queries already processed by IR: a later round skips exact repeats and near-duplicates."""

from __future__ import annotations

from hopkit.text.normalize import normalize_answer
from hopkit.text.similarity import rouge_l


class ProcessedQueries:
    """Exact match after normalisation, or ROUGE-L F1 between the two queries >= ``threshold``."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._queries: dict[str, str] = {}  # normalised query -> id of the node that processed it

    def match(self, query: str) -> str | None:
        """The id of the node whose query this one repeats, or None."""
        norm = normalize_answer(query)
        if norm in self._queries:
            return self._queries[norm]
        for seen, node_id in self._queries.items():
            if rouge_l(norm, seen) >= self.threshold:
                return node_id
        return None

    def add(self, query: str, node_id: str) -> None:
        self._queries.setdefault(normalize_answer(query), node_id)
