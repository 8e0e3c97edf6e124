"""The retriever choice rule, the same for every dataset: BM25, unless the corpus has a ColBERT index (built with
a fine-tuned checkpoint) whose question recall on the evaluated questions is higher.

``--retriever auto`` applies it: with no ColBERT index for the corpus it is BM25 without a measurement; otherwise
both retrievers answer every question once (the question as the query, OneR's setting) and the higher recall@k
wins, BM25 on a tie. The choice and both recalls go into the run's metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import dspy

from hopkit.retrieval.staging import MANIFEST

AUTO = "auto"


@dataclass(frozen=True)
class RetrieverChoice:
    backend: str
    k: int
    recalls: dict[str, float]
    reason: str

    def summary(self) -> str:
        measured = ", ".join(f"{name} {100 * value:.1f}" for name, value in self.recalls.items())
        return f"{self.backend} ({self.reason}{f'; question recall@{self.k}: {measured}' if measured else ''})"


def choose_retriever(examples: Sequence[dspy.Example], index_for: Callable[[str], Path],
                     open_index: Callable[[Path], object], k: int = 15) -> RetrieverChoice:
    """``index_for(backend)``: the corpus's index folder for a backend; ``open_index``: a retriever from one."""
    colbert = index_for("colbert")
    if not (Path(colbert) / MANIFEST).is_file():
        return RetrieverChoice("bm25", k, {}, f"no ColBERT index at {colbert}")
    scored = [ex for ex in examples if ex.get("gold_pids")]
    if not scored:
        return RetrieverChoice("bm25", k, {}, "no gold paragraphs to measure recall on")
    from hopkit.evaluation.retrieval_bench import bench_retrieval

    recalls = {backend: bench_retrieval(open_index(index_for(backend)), scored, k=k, warmup=0, progress=False).recall
               for backend in ("bm25", "colbert")}
    if recalls["colbert"] > recalls["bm25"]:
        return RetrieverChoice("colbert", k, recalls, "ColBERT's question recall is higher")
    return RetrieverChoice("bm25", k, recalls, "ColBERT's question recall is not higher")
