"""Search a colbert-ai PLAID index: loaded once, thread-safe, shared across program copies."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.errors import InputError, MissingArtifactError
from hopkit.retrieval.colbert.compat import clear_stale_extension_locks, quiet, run_config
from hopkit.retrieval.colbert.index import PLAID_FOLDER, colbert_text
from hopkit.retrieval.staging import MANIFEST


class ColBERTRetriever:
    backend = "colbert"

    def __init__(self, folder: Path, search: dict | None = None) -> None:
        """``search``: PLAID's search settings (ncells, centroid_score_threshold, ndocs), colbert-ai's defaults
        (picked by k) where not given; fewer cells and documents trade recall for latency."""
        from colbert import Searcher
        from colbert.infra import ColBERTConfig, Run

        folder = Path(folder).resolve()  # colbert-ai joins a relative index path onto its run root
        manifest_path = folder / MANIFEST
        if not manifest_path.is_file():
            raise MissingArtifactError(
                f"no ColBERT index at {folder}; build it with `hopkit index --backend colbert --checkpoint ...`")
        self.manifest = json.loads(manifest_path.read_text())
        if self.manifest.get("backend") != "colbert":
            raise MissingArtifactError(f"{folder} holds a {self.manifest.get('backend')} index, not a ColBERT one")
        self.folder, self.search_settings = folder, dict(search or {})
        self.corpus = Corpus.from_file(folder / "corpus.jsonl")
        self._lock = threading.Lock()
        clear_stale_extension_locks()  # else a lock left by a killed run makes the warm-up below wait forever
        with Run().context(run_config(folder / "colbert-run", "search")), quiet():
            self._searcher = Searcher(index=str(folder / PLAID_FOLDER), checkpoint=self.manifest["checkpoint"],
                                      collection=[colbert_text(p) for p in self.corpus],
                                      config=ColBERTConfig(**(search or {})), verbose=0)
            self._searcher.search("warm up", k=1)  # loads extensions and prints colbert-ai's one-time notices here

    def retrieve(self, query: str, k: int) -> list[Passage]:
        return self.retrieve_batch([query], k)[0]

    def retrieve_batch(self, queries: Sequence[str], k: int) -> list[list[Passage]]:
        if any(not q or not q.strip() for q in queries):
            raise InputError("empty retrieval query")
        k = max(1, min(k, len(self.corpus)))
        with self._lock:  # colbert-ai's searcher keeps per-call state: one search at a time
            if len(queries) == 1:
                results = [self._searcher.search(queries[0], k=k)]
            else:
                with quiet():
                    ranking = self._searcher.search_all(dict(enumerate(queries)), k=k)
                results = [tuple(zip(*ranking.data[i])) if ranking.data.get(i) else ((), (), ())
                           for i in range(len(queries))]
        return [[self.corpus.at(int(pid)).ranked(rank=int(rank), score=float(score))
                 for pid, rank, score in zip(*result)] for result in results]

    def __deepcopy__(self, memo: dict) -> ColBERTRetriever:
        return self  # the index is loaded once and shared
