"""Reciprocal rank fusion of two (or more) retrievers, e.g. ColBERT + BM25."""

from __future__ import annotations

from collections.abc import Sequence

from hopkit.data.passage import Passage
from hopkit.retrieval.protocol import Retriever

RRF_K = 60  # the constant of Cormack et al. (2009)


class FusionRetriever:
    """score(p) = sum over retrievers of 1 / (rrf_k + rank_i(p)); each retriever returns ``depth`` candidates."""

    backend = "hybrid"

    def __init__(self, retrievers: Sequence[Retriever], depth: int = 50, rrf_k: int = RRF_K) -> None:
        if len(retrievers) < 2:
            raise ValueError("fusion needs at least two retrievers")
        self.retrievers = list(retrievers)
        self.depth = depth
        self.rrf_k = rrf_k
        self.corpus = getattr(self.retrievers[0], "corpus", None)

    def retrieve(self, query: str, k: int) -> list[Passage]:
        scores: dict[str, float] = {}
        passages: dict[str, Passage] = {}
        for retriever in self.retrievers:
            for rank, passage in enumerate(retriever.retrieve(query, max(k, self.depth)), start=1):
                scores[passage.pid] = scores.get(passage.pid, 0.0) + 1.0 / (self.rrf_k + rank)
                passages.setdefault(passage.pid, passage)
        ranked = sorted(scores, key=lambda pid: (-scores[pid], pid))[:k]
        return [passages[pid].ranked(rank=i + 1, score=scores[pid]) for i, pid in enumerate(ranked)]

    def __deepcopy__(self, memo: dict) -> FusionRetriever:
        return self
