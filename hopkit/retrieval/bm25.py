"""BM25 over a corpus with bm25s (IRCoT's retriever was BM25), saved beside its corpus."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import bm25s

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.errors import InputError, MissingArtifactError
from hopkit.retrieval.staging import MANIFEST, fresh_staging, publish


def _passage_text(passage: Passage) -> str:
    return f"{passage.title}. {passage.text}" if passage.title else passage.text


class BM25Retriever:
    """In-memory BM25; thread-safe and shared (not copied) across program copies."""

    backend = "bm25"

    def __init__(self, corpus: Corpus, model: bm25s.BM25 | None = None, k1: float = 1.5, b: float = 0.75) -> None:
        self.corpus = corpus
        self._lock = threading.Lock()
        if model is None:
            model = bm25s.BM25(k1=k1, b=b)
            tokens = bm25s.tokenize([_passage_text(p) for p in corpus], stopwords="en", show_progress=False)
            model.index(tokens, show_progress=False)
        self.model = model

    def __getstate__(self) -> dict:  # DSPy's whole-program save pickles the retriever with its program
        return {name: value for name, value in self.__dict__.items() if name != "_lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def retrieve(self, query: str, k: int) -> list[Passage]:
        if not query or not query.strip():
            raise InputError("empty retrieval query")
        k = max(1, min(k, len(self.corpus)))
        tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
        with self._lock:
            if not tokens.vocab:  # every query word is a stop word
                return []
            positions, scores = self.model.retrieve(tokens, k=k, show_progress=False, n_threads=1)
        return [self.corpus.at(int(pos)).ranked(rank=r + 1, score=float(s))
                for r, (pos, s) in enumerate(zip(positions[0], scores[0]))]

    def save(self, folder: Path) -> Path:
        """Write the index atomically: a crash leaves the old index (or none), never half of one."""
        folder = Path(folder)
        staging = fresh_staging(folder)
        self.model.save(str(staging / "bm25"))
        self.corpus.write_jsonl(staging / "corpus.jsonl")
        manifest = {"backend": self.backend, "passages": len(self.corpus), "corpus_sha256": self.corpus.fingerprint(),
                    "k1": self.model.k1, "b": self.model.b, "bm25s": bm25s.__version__}
        return publish(staging, folder, manifest)

    @classmethod
    def load(cls, folder: Path) -> BM25Retriever:
        folder = Path(folder)
        manifest_path = folder / MANIFEST
        if not manifest_path.is_file():
            raise MissingArtifactError(
                f"no BM25 index at {folder}; build it with `hopkit index --backend bm25 --dataset <name>`"
            )
        manifest = json.loads(manifest_path.read_text())
        corpus = Corpus.from_file(folder / "corpus.jsonl")
        return cls(corpus, model=bm25s.BM25.load(str(folder / "bm25")), k1=manifest["k1"], b=manifest["b"])

    def __deepcopy__(self, memo: dict) -> BM25Retriever:
        return self
