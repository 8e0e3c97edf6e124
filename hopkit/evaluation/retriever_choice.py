"""The retriever choice rule, the same for every dataset: BM25, unless the corpus has a ColBERT index (built with
a fine-tuned checkpoint) whose question recall on the evaluated questions is higher.

``--retriever auto`` applies it: with no ColBERT index for the corpus it is BM25 without a measurement; otherwise
both retrievers answer every question once (the question as the query, OneR's setting), and ColBERT is chosen only
when its recall@5 is higher by a paired 95% bootstrap interval that excludes 0 (BM25 on a tie or within noise).
Recall is read at 5, the most paragraphs one retrieval returns in IRCoT (K = 4), SearChain (k = 1) and ToR (5 in
its first layer): on closed corpora of 10-20 paragraphs a question, recall@15 sits near its ceiling for both
(docs/results.md, "The retriever choice rule"). The choice, both recalls and the interval go into the run's
metadata.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import dspy

from hopkit.data.examples import Dataset
from hopkit.errors import InputError
from hopkit.paths import default_index_path
from hopkit.retrieval.counting import CountingRetriever
from hopkit.retrieval.loading import open_retriever
from hopkit.retrieval.protocol import Retriever
from hopkit.retrieval.staging import MANIFEST

AUTO = "auto"
RULE_K = 5


@dataclass(frozen=True)
class RetrieverChoice:
    backend: str
    k: int
    recalls: dict[str, float]
    reason: str
    interval: tuple[float, float] | None = None  # ColBERT - BM25, paired 95%

    def summary(self) -> str:
        measured = ", ".join(f"{name} {100 * value:.1f}" for name, value in self.recalls.items())
        if self.interval:
            measured += f", ColBERT - BM25 [{100 * self.interval[0]:+.1f}, {100 * self.interval[1]:+.1f}]"
        return f"{self.backend} ({self.reason}{f'; question recall@{self.k}: {measured}' if measured else ''})"


def choose_retriever(examples: Sequence[dspy.Example], index_for: Callable[[str], Path],
                     open_index: Callable[[Path], Retriever], k: int = RULE_K) -> RetrieverChoice:
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
                return RetrieverChoice(saved["backend"], k, saved["recalls"], saved["reason"],
                                       tuple(saved["interval"]) if saved.get("interval") else None)
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


def _measure(scored: Sequence[dspy.Example], index_for: Callable[[str], Path], open_index: Callable[[Path], Retriever],
             k: int) -> RetrieverChoice:
    from hopkit.evaluation.metrics import recall_at
    from hopkit.evaluation.paired import paired_bootstrap

    per_question = {}
    for backend in ("bm25", "colbert"):
        retriever = open_index(index_for(backend))
        per_question[backend] = [recall_at([p.pid for p in retriever.retrieve(ex.question, k)], ex.gold_pids, k)
                                 for ex in scored]
    recalls = {backend: sum(values) / len(values) for backend, values in per_question.items()}
    _, low, high = paired_bootstrap(per_question["bm25"], per_question["colbert"])
    if low > 0:
        return RetrieverChoice("colbert", k, recalls, "ColBERT's question recall is higher", (low, high))
    return RetrieverChoice("bm25", k, recalls, "ColBERT's question recall is not higher beyond noise", (low, high))


def open_dataset_retriever(backend: str, index: Path | None, plaid: str | None,
                           dataset: Dataset | None) -> tuple[CountingRetriever, str, str | None]:
    """The index named by ``index``, else the dataset's; with a dataset, the index must be over its corpus.
    Returns the retriever, the backend it is, and what ``auto`` measured to choose it (None: nothing measured)."""
    if index is None and dataset is None:
        raise InputError("give --index or --dataset")
    if index is None and dataset is not None and dataset.corpus is None:
        raise InputError(f"{dataset.name} brings no passages of its own: index your corpus (e.g. KILT's Wikipedia "
                         "passages) with `hopkit index --backend bm25 --corpus FILE.jsonl --out DIR` and pass --index "
                         "DIR")
    from hopkit.retrieval.loading import parse_plaid

    choice = None
    if backend == AUTO:
        backend, choice = _choose_backend(index, dataset)
    corpus_name = dataset.corpus_name if dataset is not None else ""  # without a dataset, the index is given
    retriever = open_retriever(backend, lambda name: default_index_path(corpus_name, name), index,
                               parse_plaid(plaid))
    counted, corpus = CountingRetriever(retriever), getattr(retriever, "corpus", None)
    if (dataset is not None and dataset.corpus is not None and corpus is not None
            and corpus.fingerprint() != dataset.corpus.fingerprint()):
        raise InputError(f"the {backend} index was built over another corpus than {dataset.name}'s; "
                         f"rebuild it with `hopkit index --backend {backend} --dataset {dataset.name}`")
    return counted, backend, choice


def _choose_backend(index: Path | None, dataset: Dataset | None) -> tuple[str, str | None]:
    """``--retriever auto`` (the default): the backend of the index ``--index`` names; else BM25 unless the
    dataset's ColBERT index has the higher question recall (measured only when that index exists; the measurement
    is printed and kept for the run's metadata)."""
    from hopkit.retrieval.loading import index_backend, load_index

    if index is None:
        if dataset is None:  # the caller has refused a run with neither
            raise InputError("a retriever needs an index or a dataset")
        choice = choose_retriever(dataset.examples, lambda backend: default_index_path(dataset.corpus_name, backend),
                                  load_index)
        if not choice.recalls:
            return choice.backend, None
        print(f"retriever: {choice.summary()}", file=sys.stderr)  # a measurement was made: say so
        return choice.backend, choice.summary()
    return index_backend(index), None
