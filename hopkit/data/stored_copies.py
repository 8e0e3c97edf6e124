"""Stored copies of hub splits: a split's rows kept once under hopkit's home (``hopkit data add``) and read in
place of the Hugging Face hub whenever that split is named without a file.

A measured default that names a hub split (IRCoT on MuSiQue takes ``musique:train``'s decompositions as its
demonstrations, hopkit/programs/demo_source.py) then works offline too: an online user stores the split with
``hopkit data add musique:train``, an offline one with ``--from /path/rows.jsonl`` (the hub's row layout). The
rows are checked by the split's own converter before they are kept, so a stored copy always loads.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from hopkit.errors import InputError, MissingArtifactError
from hopkit.paths import data_dir

if TYPE_CHECKING:
    from hopkit.data.hub_formats import HubDataset

_SPLIT_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def _path(kind: str, split: str) -> Path:
    return data_dir() / "hub" / f"{kind}-{split}.jsonl"


def stored_copy(kind: str, split: str) -> Path | None:
    """The stored rows of ``kind:split``, or None when none were stored (or the split is a hub expression such
    as ``train[:100]``, which only the hub reads)."""
    path = _path(kind, split) if _SPLIT_NAME.fullmatch(split) else None
    return path if path and path.is_file() else None


def store_copy(kind: str, split: str, rows_file: Path | None = None) -> tuple[Path, int]:
    """Keep ``kind:split``'s rows: from ``rows_file`` (checked by the converter first), else downloaded from the
    hub. Returns where they are and how many examples they give."""
    from hopkit.data.hub_formats import HUB, load_hub

    if kind not in HUB:
        raise InputError(f"{kind!r} is not a hub dataset; stored copies exist for: {', '.join(sorted(HUB))}")
    if not _SPLIT_NAME.fullmatch(split):
        raise InputError(f"split name {split!r} must be letters, digits, '_', '.' or '-' (e.g. train, validation)")
    target = _path(kind, split)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    if rows_file is not None:
        examples = len(load_hub(kind, split, str(rows_file)).examples)  # raises on a file that does not convert
        shutil.copyfile(rows_file, partial)
    else:
        _download(HUB[kind], kind, split, partial)
        examples = len(load_hub(kind, split, str(partial)).examples)
    partial.replace(target)  # a copy is either whole or absent
    return target, examples


def _download(spec: HubDataset, kind: str, split: str, out: Path) -> None:
    import datasets

    try:
        rows = datasets.load_dataset(spec.hub_id, spec.config, split=split)
    except Exception as error:  # the hub raises many kinds (ConnectionError, OfflineModeIsEnabled, ...)
        raise MissingArtifactError(
            f"could not download {spec.hub_id} split {split!r} ({type(error).__name__}); offline, store rows you "
            f"have with `hopkit data add {kind}:{split} --from /path/rows.jsonl`") from None
    rows.to_json(str(out), lines=True, force_ascii=False)
