"""The retriever choice rule, the same for every dataset: BM25, unless the corpus has a ColBERT index (built with
a fine-tuned checkpoint) whose question recall on the evaluated questions is higher.

``--retriever auto`` applies it: with no ColBERT index for the corpus it is BM25 without a measurement; otherwise
both retrievers answer every question once (the question as the query, OneR's setting) and the higher recall@k
wins, BM25 on a tie. The choice and both recalls go into the run's metadata.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
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
    """``index_for(backend)``: the corpus's index folder for a backend; ``open_index``: a retriever from one.
    A measurement is kept beside the ColBERT index and reused while both indexes and the questions are the same."""
    colbert = index_for("colbert")
    if not (Path(colbert) / MANIFEST).is_file():
        return RetrieverChoice("bm25", k, {}, f"no ColBERT index at {colbert}")
    scored = [ex for ex in examples if ex.get("gold_pids")]
    if not scored:
        return RetrieverChoice("bm25", k, {}, "no gold paragraphs to measure recall on")
    key = _measurement_key(scored, index_for, k)
    kept = Path(colbert).with_name(Path(colbert).name + ".choice.json")
    if kept.is_file():
        try:
            saved = json.loads(kept.read_text(encoding="utf-8"))
            if saved.get("key") == key:
                return RetrieverChoice(saved["backend"], k, saved["recalls"], saved["reason"])
        except (OSError, ValueError, KeyError):
            pass
    choice = _measure(scored, index_for, open_index, k)
    kept.write_text(json.dumps({"key": key, **asdict(choice)}), encoding="utf-8")
    return choice


def _measurement_key(examples: Sequence[dspy.Example], index_for: Callable[[str], Path], k: int) -> str:
    parts = [str(k)] + [(Path(index_for(b)) / MANIFEST).read_text(encoding="utf-8") for b in ("bm25", "colbert")
                        if (Path(index_for(b)) / MANIFEST).is_file()]
    parts += [f"{ex.qid}:{','.join(ex.gold_pids)}" for ex in examples]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def _measure(scored: Sequence[dspy.Example], index_for: Callable[[str], Path], open_index: Callable[[Path], object],
             k: int) -> RetrieverChoice:
    from hopkit.evaluation.retrieval_bench import bench_retrieval

    recalls = {backend: bench_retrieval(open_index(index_for(backend)), scored, k=k, warmup=0, progress=False).recall
               for backend in ("bm25", "colbert")}
    if recalls["colbert"] > recalls["bm25"]:
        return RetrieverChoice("colbert", k, recalls, "ColBERT's question recall is higher")
    return RetrieverChoice("bm25", k, recalls, "ColBERT's question recall is not higher")
