"""Storing a hub split's rows once under hopkit's home (``hopkit data add``): from a file the user has, checked by
the split's own converter first, or downloaded from the hub. hopkit/data/stored_copies.py says where copies live
and finds them when a split is named without a file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hopkit.data.hub_formats import HUB, HubDataset, load_hub
from hopkit.data.hub_reach import failure_reason, hub_rows
from hopkit.data.stored_copies import SPLIT_NAME, copy_path
from hopkit.errors import InputError, MissingArtifactError


def store_copy(kind: str, split: str, rows_file: Path | None = None) -> tuple[Path, int]:
    """Keep ``kind:split``'s rows: from ``rows_file`` (checked by the converter first), else downloaded from the
    hub. Returns where they are and how many examples they give."""
    if kind not in HUB:
        raise InputError(f"{kind!r} is not a hub dataset; stored copies exist for: {', '.join(sorted(HUB))}")
    if not SPLIT_NAME.fullmatch(split):
        raise InputError(f"split name {split!r} must be letters, digits, '_', '.' or '-' (e.g. train, validation)")
    target = copy_path(kind, split)
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
    try:
        rows = hub_rows(spec.hub_id, spec.config, split)
    except Exception as error:  # the hub raises many kinds (ConnectionError, OfflineModeIsEnabled, ...)
        raise MissingArtifactError(
            f"could not download {spec.hub_id} split {split!r} ({failure_reason(error)}); offline, store rows you "
            f"have with `hopkit data add {kind}:{split} --from /path/rows.jsonl`") from None
    rows.to_json(str(out), lines=True, force_ascii=False)
