"""Atomic index builds: write into a staging folder, then swap it into place in two renames."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hopkit.paths import check_replaceable

MANIFEST = "hopkit-index.json"
CHECKPOINT_MARKER = "artifact.metadata"  # what colbert-ai writes into every checkpoint folder it saves


def fresh_staging(out: Path) -> Path:
    """An empty ``<out>.building`` folder; a crashed earlier build's leftovers are removed. Refused before any work
    where ``out`` is something other than an index."""
    check_replaceable(out, MANIFEST, "an index")
    staging = out.with_name(out.name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    return staging


def publish(staging: Path, out: Path, manifest: dict) -> Path:
    """Write the manifest (it marks a complete index) and swap ``staging`` into ``out``.

    Until the swap, loaders see the previous index (or none); a crash never leaves a half index at ``out``.
    """
    check_replaceable(out, MANIFEST, "an index")  # what appeared there while the index was built
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2))
    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return out
