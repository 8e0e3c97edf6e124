"""Where hopkit keeps what it builds: one home folder, overridable by HOPKIT_HOME."""

from __future__ import annotations

import os
from pathlib import Path


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
