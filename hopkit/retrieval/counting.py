"""Counts retrieval calls per question, the same way LM calls are counted."""

from __future__ import annotations

from typing import Any

from hopkit.data.passage import Passage
from hopkit.lm.usage import current_usage
from hopkit.retrieval.protocol import Retriever


class CountingRetriever:
    """Wraps any retriever; each call is recorded in the active usage scope."""

    def __init__(self, inner: Retriever) -> None:
        self.inner = inner

    def retrieve(self, query: str, k: int) -> list[Passage]:
        passages = self.inner.retrieve(query, k)
        usage = current_usage()
        if usage is not None:
            usage.add_retrieval()
        return passages

    def __deepcopy__(self, memo: dict) -> CountingRetriever:
        return self  # holds an index: optimizers copy programs, never indexes

    def __getattr__(self, name: str) -> Any:  # the wrapped retriever's own attributes (its corpus, its index)
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def counted(retriever: Any) -> Any:
    """The retriever, counting its calls in the active usage scope (a program wraps what it is given, so the Python
    API's runs count retrievals as the command line's do); None and a counted one are kept as they are."""
    if retriever is None or isinstance(retriever, CountingRetriever):
        return retriever
    return CountingRetriever(retriever)
