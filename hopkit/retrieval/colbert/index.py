"""Building a PLAID index with colbert-ai, atomically, with the corpus and a manifest beside it."""

from __future__ import annotations

import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.retrieval.colbert.compat import bounded_heldout, no_git_metadata, run_config
from hopkit.retrieval.colbert.torch_kmeans import KmeansBackend, kmeans_backend, uses_torch
from hopkit.retrieval.staging import fresh_staging, publish

PLAID_FOLDER = "plaid"


@dataclass(frozen=True)
class ColBERTIndexSettings:
    nbits: int = 2
    doc_maxlen: int = 180
    kmeans_niters: int = 4
    index_bsize: int = 32
    kmeans: KmeansBackend = "auto"  # where the k-means runs: torch on a GPU that faiss cannot use (compat item 8)


def colbert_text(passage: Passage) -> str:
    """ColBERT's convention for titled passages: ``title | text``."""
    return f"{passage.title} | {passage.text}" if passage.title else passage.text


def build_colbert_index(corpus: Corpus, checkpoint: str, out: Path,
                        settings: ColBERTIndexSettings = ColBERTIndexSettings()) -> Path:
    """Index into ``out.building`` and swap it into place only when complete: a crash never leaves
    a half-written index under ``out``, and an older index there stays usable until the swap."""
    from colbert import Indexer
    from colbert.infra import ColBERTConfig, Run

    out = Path(out).resolve()
    staging = fresh_staging(out)
    start = time.perf_counter()
    with Run().context(run_config(staging / "colbert-run", "index")), no_git_metadata(), bounded_heldout(), \
            kmeans_backend(settings.kmeans):
        config = ColBERTConfig(nbits=settings.nbits, doc_maxlen=settings.doc_maxlen,
                               kmeans_niters=settings.kmeans_niters, index_bsize=settings.index_bsize,
                               index_path=str(staging / PLAID_FOLDER))
        indexer = Indexer(checkpoint=checkpoint, config=config, verbose=0)
        indexer.index(name=PLAID_FOLDER, collection=[colbert_text(p) for p in corpus],
                      overwrite="force_silent_overwrite")
    seconds = time.perf_counter() - start
    shutil.rmtree(staging / "colbert-run", ignore_errors=True)
    corpus.write_jsonl(staging / "corpus.jsonl")
    size = sum(f.stat().st_size for f in (staging / PLAID_FOLDER).rglob("*") if f.is_file())
    manifest = {"backend": "colbert", "checkpoint": checkpoint, "settings": asdict(settings),
                "passages": len(corpus), "corpus_sha256": corpus.fingerprint(),
                "kmeans_ran_on": "torch" if uses_torch(settings.kmeans) else "faiss",
                "build_seconds": round(seconds, 1), "index_bytes": size}
    return publish(staging, out, manifest)
