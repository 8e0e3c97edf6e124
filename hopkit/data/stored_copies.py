"""Stored copies of hub splits: a split's rows kept once under hopkit's home (``hopkit data add``) and read in
place of the Hugging Face hub whenever that split is named without a file.

A measured default that names a hub split (IRCoT on MuSiQue takes ``musique:train``'s decompositions as its
demonstrations, hopkit/programs/demo_source.py) then works offline too: an online user stores the split with
``hopkit data add musique:train``, an offline one with ``--from /path/rows.jsonl`` (the hub's row layout). The
rows are checked by the split's own converter before they are kept (hopkit/data/store_split.py), so a stored copy
always loads.
"""

from __future__ import annotations

import re
from pathlib import Path

from hopkit.paths import data_dir

SPLIT_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def copy_path(kind: str, split: str) -> Path:
    """Where ``kind:split``'s stored rows live (hopkit/data/store_split.py writes them)."""
    return data_dir() / "hub" / f"{kind}-{split}.jsonl"


def stored_copy(kind: str, split: str) -> Path | None:
    """The stored rows of ``kind:split``, or None when none were stored (or the split is a hub expression such
    as ``train[:100]``, which only the hub reads)."""
    path = copy_path(kind, split) if SPLIT_NAME.fullmatch(split) else None
    return path if path and path.is_file() else None
