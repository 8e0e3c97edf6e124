"""Opening a retriever by name: ``bm25``, ``colbert``, ``hybrid`` (ColBERT + BM25 by RRF), ``remote:URL``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from hopkit.errors import InputError, MissingArtifactError
from hopkit.retrieval.bm25 import BM25Retriever
from hopkit.retrieval.protocol import Retriever
from hopkit.retrieval.staging import MANIFEST

BACKENDS = ("bm25", "colbert", "hybrid", "remote:URL")


def load_index(folder: Path) -> Retriever:
    """Whatever index the folder holds, read from its manifest."""
    manifest = Path(folder) / MANIFEST
    if not manifest.is_file():
        raise MissingArtifactError(f"no index at {folder}; build one with `hopkit index --backend bm25|colbert ...`")
    backend = json.loads(manifest.read_text()).get("backend")
    if backend == "bm25":
        return BM25Retriever.load(folder)
    if backend == "colbert":
        from hopkit.retrieval.colbert.retriever import ColBERTRetriever

        return ColBERTRetriever(folder)
    raise MissingArtifactError(f"{folder}: unknown index backend {backend!r}")


def open_retriever(spec: str, index_for: Callable[[str], Path], index: Path | None = None) -> Retriever:
    """``index_for(backend)`` gives the default index folder of a backend; ``index`` overrides it."""
    if spec.startswith("remote:"):
        from hopkit.retrieval.remote import RemoteColBERT

        return RemoteColBERT(spec.removeprefix("remote:"))
    if spec in ("bm25", "colbert"):
        return load_index(index or index_for(spec))
    if spec == "hybrid":
        from hopkit.retrieval.fusion import FusionRetriever

        colbert = load_index(index or index_for("colbert"))
        return FusionRetriever([colbert, load_index(index_for("bm25"))])
    raise InputError(f"unknown retriever {spec!r}; use one of {', '.join(BACKENDS)}")
