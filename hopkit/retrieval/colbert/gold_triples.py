"""Fine-tuning triples from a dataset's own gold paragraphs: (question, gold paragraph, hard negative).

The hard negative is a paragraph BM25 ranks high for the question that is not gold, so the fine-tuned ColBERT
learns what BM25 gets wrong on that data. Any dataset with gold paragraphs works (MuSiQue's train split, an IRCoT
demonstration file, the bundled train split).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import dspy

from hopkit.data.corpus import Corpus
from hopkit.errors import InputError
from hopkit.retrieval.bm25 import BM25Retriever


def gold_triples(examples: Sequence[dspy.Example], corpus: Corpus, negatives: int = 2,
                 depth: int = 20) -> list[dict]:
    """For each question and each of its gold pids, ``negatives`` triples with BM25's best non-gold paragraphs."""
    bm25 = BM25Retriever(corpus)
    triples = []
    for example in examples:
        gold = [pid for pid in example.get("gold_pids", []) if pid in corpus]
        if not gold or not example.question.strip():
            continue
        ranked = [p.pid for p in bm25.retrieve(example.question, depth) if p.pid not in gold][:negatives]
        triples += [{"query": example.question, "positive": pid, "negative": negative}
                    for pid in gold for negative in ranked]
    if not triples:
        raise InputError("the dataset has no questions with gold paragraphs in its corpus to build triples from")
    return triples


def write_gold_triples(examples: Sequence[dspy.Example], corpus: Corpus, path: Path, negatives: int = 2) -> int:
    rows = gold_triples(examples, corpus, negatives)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return len(rows)
