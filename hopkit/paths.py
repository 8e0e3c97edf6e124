"""Where hopkit keeps what it builds (one home folder, overridable by HOPKIT_HOME), and what a build may write over."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from hopkit.errors import InputError


def home() -> Path:
    return Path(os.environ.get("HOPKIT_HOME", Path.home() / ".cache" / "hopkit"))


def data_dir() -> Path:
    return home() / "data"


def index_dir() -> Path:
    return home() / "indexes"


def models_dir() -> Path:
    return Path(os.environ.get("HOPKIT_MODELS", home() / "models"))


def runs_dir() -> Path:
    return Path(os.environ.get("HOPKIT_RUNS", "runs"))


def torch_extensions_dir() -> Path:
    """colbert-ai's compiled C++ extensions, one folder per Python environment: builds record the environment's
    include paths, so two environments sharing one folder rebuild each other's extensions on every first search
    (and one may load a library the other is rewriting)."""
    environment = hashlib.sha1(sys.prefix.encode()).hexdigest()[:10]
    return home() / "torch-extensions" / environment


def slug(text: str) -> str:
    """A name made safe for a file or folder name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


def default_index_path(corpus_name: str, backend: str) -> Path:
    """Where ``hopkit index`` keeps a corpus's index for a backend when no --out is given."""
    return index_dir() / f"{slug(corpus_name)}.{backend}"


def check_replaceable(out: Path, marker: str, what: str) -> None:
    """A build replaces ``out`` only where it holds nothing or what such a build writes (its ``marker`` file): a
    folder of the user's own given as ``--out`` is never deleted, nor a file of theirs moved aside."""
    if not out.exists() or (out.is_dir() and ((out / marker).is_file() or not any(out.iterdir()))):
        return
    raise InputError(f"{out} exists and is not {what} (it holds no {marker}); pass another --out, or remove it first")


def check_study_folder(folder: Path, markers: tuple[str, ...], what: str) -> None:
    """A study (optimize, reproduce, ablate) writes its summary, tables and plots into ``folder`` only where it is
    new, empty, or already such a study (it holds one of ``markers``): a folder of the user's own given as ``--out``
    keeps its files, and a study's own folder resumes."""
    if not folder.exists() or (folder.is_dir() and (not any(folder.iterdir())
                                                    or any((folder / marker).exists() for marker in markers))):
        return
    named = ", ".join(markers[:3]) + (f" or the {len(markers) - 3} others" if len(markers) > 3 else "")
    holds = f"it holds none of {named}" if folder.is_dir() else "it is a file"
    raise InputError(f"{folder} exists and is not {what} ({holds}); pass another --out, or remove it first")


def existing_figures(out: Path | None, kind: type = object) -> Any:
    """What a benchmark's ``--out`` JSON holds already (None: no file): a rerun keeps it or writes it again, and a
    file that is not such JSON (a dataset, a CSV) is refused in one line rather than written over."""
    if out is None or not out.exists():
        return None
    try:
        figures = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        figures = None
    if not isinstance(figures, kind) or figures is None:
        raise InputError(f"{out} exists and is not a JSON file of this benchmark's figures; pass another --out")
    return figures


def check_page(out: Path) -> None:
    """An ``--html`` path is written over only where it holds a page already."""
    if out.exists() and not (out.is_file() and out.read_bytes()[:64].lstrip().lower().startswith(b"<!doctype html")):
        raise InputError(f"{out} exists and is not an HTML page; pass another --html")
