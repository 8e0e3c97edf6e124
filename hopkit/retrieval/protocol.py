"""The retriever protocol every backend implements and every program receives."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from hopkit.data.passage import Passage


@runtime_checkable
class Retriever(Protocol):
    """``retrieve(query, k)`` returns up to k passages, best first, with ``score`` and ``rank`` set."""

    def retrieve(self, query: str, k: int) -> list[Passage]: ...
