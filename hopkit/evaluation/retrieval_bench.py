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


def bench_retrieval(retriever: Retriever, examples: Sequence[dspy.Example], k: int = 15,
                    warmup: int = 3, progress: bool = True) -> RetrievalReport:
    """The question is the query (OneR's setting); the first ``warmup`` queries are not timed."""
    for example in examples[:warmup]:
        retriever.retrieve(example.question, k)
    recalls, latencies = [], []
    for example in tqdm(examples, desc="retrieve", unit="q", disable=not progress):
        start = time.perf_counter()
        passages = retriever.retrieve(example.question, k)
        latencies.append(1000 * (time.perf_counter() - start))
        recalls.append(recall_at([p.pid for p in passages], example.gold_pids, budget=k))
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, int(round(0.95 * (len(latencies) - 1))))]
    return RetrievalReport(len(examples), k, sum(recalls) / len(recalls), statistics.median(latencies), p95)
