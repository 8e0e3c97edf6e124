"""Opening a retriever by name: ``bm25``, ``colbert``, ``hybrid`` (ColBERT + BM25 by RRF), ``remote:URL``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from hopkit.errors import InputError, MissingArtifactError
from hopkit.retrieval.bm25 import BM25Retriever
from hopkit.retrieval.protocol import Retriever
from hopkit.retrieval.staging import MANIFEST

if TYPE_CHECKING:
    from hopkit.data.corpus import Corpus

BACKENDS = ("bm25", "colbert", "hybrid", "remote:URL")


PLAID_SETTINGS = ("ncells", "centroid_score_threshold", "ndocs")


def parse_plaid(text: str | None) -> dict:
    """``ncells=2,centroid_score_threshold=0.45,ndocs=1024`` -> settings for ColBERT's PLAID search."""
    settings: dict = {}
    for pair in (p.strip() for p in (text or "").split(",") if p.strip()):
        name, _, value = pair.partition("=")
        if name not in PLAID_SETTINGS or not value:
            raise InputError(f"--plaid takes {', '.join(f'{s}=VALUE' for s in PLAID_SETTINGS)}, got {pair!r}")
        try:
            settings[name] = float(value) if name == "centroid_score_threshold" else int(value)
        except ValueError:
            raise InputError(f"--plaid {name} must be a number, got {value!r}") from None
    return settings


def index_backend(folder: Path) -> str:
    """The backend an index folder holds (bm25 or colbert), from its manifest."""
    manifest = Path(folder) / MANIFEST
    if not manifest.is_file():
        raise MissingArtifactError(f"no index at {folder}; build one with `hopkit index --backend bm25|colbert ...`")
    try:
        backend = json.loads(manifest.read_text()).get("backend")
    except (ValueError, AttributeError, OSError) as error:
        raise MissingArtifactError(damaged(folder, "bm25|colbert", error)) from None
    return str(backend)


def damaged(folder: Path, backend: str, error: BaseException) -> str:
    """One line for an index that cannot be read, with the command that builds it again from its own corpus copy."""
    reason = (str(error).strip().splitlines() or [type(error).__name__])[0][:120]
    return (f"the index at {folder} is damaged ({type(error).__name__}: {reason}); build it again with "
            f"`hopkit index --backend {backend} --corpus {Path(folder) / 'corpus.jsonl'} --out {folder}` "
            "(or your own corpus file)")


def _colbert(folder: Path, plaid: dict | None) -> Retriever:
    from hopkit.retrieval.colbert.retriever import ColBERTRetriever  # colbert-ai loads only when asked for

    return ColBERTRetriever(folder, plaid)


# an index folder's manifest names its backend; each backend reads its own folder
INDEX_READERS: dict[str, Callable[[Path, dict | None], Retriever]] = {
    "bm25": lambda folder, plaid: BM25Retriever.load(folder), "colbert": _colbert}


def bm25_of(corpus: Corpus, corpus_name: str) -> Retriever:
    """The corpus's BM25 index in its default place, built there first where there is none (the benchmarks and the
    demo, which need no choice of retriever)."""
    from hopkit.paths import default_index_path

    folder = default_index_path(corpus_name, "bm25")
    if not (folder / MANIFEST).is_file():
        BM25Retriever(corpus).save(folder)
    return load_index(folder)


def load_index(folder: Path, plaid: dict | None = None) -> Retriever:
    """Whatever index the folder holds, read from its manifest (``plaid``: ColBERT's search settings)."""
    backend = index_backend(folder)
    if backend not in INDEX_READERS:
        raise MissingArtifactError(f"{folder}: unknown index backend {backend!r}")
    try:
        return INDEX_READERS[backend](Path(folder), plaid)
    except (OSError, ValueError, EOFError, KeyError) as error:  # a truncated array, a missing file, bad JSON
        raise MissingArtifactError(damaged(folder, backend, error)) from None


def open_retriever(spec: str, index_for: Callable[[str], Path], index: Path | None = None,
                   plaid: dict | None = None) -> Retriever:
    """``index_for(backend)`` gives the default index folder of a backend; ``index`` overrides it."""
    if spec.startswith("remote:"):
        from hopkit.retrieval.remote import RemoteColBERT

        return RemoteColBERT(spec.removeprefix("remote:"))
    if spec in ("bm25", "colbert"):
        return load_index(index or index_for(spec), plaid)
    if spec == "hybrid":
        from hopkit.retrieval.fusion import FusionRetriever

        colbert = load_index(index or index_for("colbert"), plaid)
        return FusionRetriever([colbert, load_index(index_for("bm25"))])
    raise InputError(f"unknown retriever {spec!r}; use one of {', '.join(BACKENDS)}")
