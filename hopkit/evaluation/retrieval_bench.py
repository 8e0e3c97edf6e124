"""Retrieval quality and speed on a dataset: recall@k of gold paragraphs and per-query latency."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

import dspy
from tqdm import tqdm

from hopkit.evaluation.metrics import recall_at
from hopkit.retrieval.protocol import Retriever


@dataclass(frozen=True)
class RetrievalReport:
    n: int
    k: int
    recall: float
    p50_ms: float
    p95_ms: float

    def row(self, label: str) -> str:
        return f"| {label} | {self.n} | {100 * self.recall:.1f} | {self.p50_ms:.1f} | {self.p95_ms:.1f} |"


HEADER = "| retriever | n | recall@k | p50 ms/query | p95 ms/query |\n|---|---|---|---|---|"


def query_items(examples: Sequence[dspy.Example], queries: str = "question") -> list[tuple[str, list[str]]]:
    """``question``: the question against all its gold pids (OneR's setting). ``hops``: each single-hop
    query of the bundled benchmark against the one paragraph that answers it (retriever quality alone)."""
    if queries == "question":
        return [(ex.question, list(ex.gold_pids)) for ex in examples]
    if queries == "hops":
        return [(query, [pid]) for ex in examples for query, pid in zip(ex.hop_queries, ex.gold_pids)]
    raise ValueError(f"queries must be 'question' or 'hops', got {queries!r}")


def bench_retrieval(retriever: Retriever, examples: Sequence[dspy.Example], k: int = 15,
                    warmup: int = 3, progress: bool = True, queries: str = "question") -> RetrievalReport:
    """Recall@k and latency per query; the first ``warmup`` queries are not timed."""
    items = query_items(examples, queries)
    for query, _ in items[:warmup]:
        retriever.retrieve(query, k)
    recalls, latencies = [], []
    for query, gold in tqdm(items, desc="retrieve", unit="q", disable=not progress):
        start = time.perf_counter()
        passages = retriever.retrieve(query, k)
        latencies.append(1000 * (time.perf_counter() - start))
        recalls.append(recall_at([p.pid for p in passages], gold, budget=k))
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, int(round(0.95 * (len(latencies) - 1))))]
    return RetrievalReport(len(items), k, sum(recalls) / len(recalls), statistics.median(latencies), p95)
