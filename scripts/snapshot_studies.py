"""Copy the optimizer's study folders (SQLite storage through the backup API, so a live study copies
consistently, and the per-setting JSONLs) into docs/runs/optimize/, so a later session on a fresh machine
resumes them: scripts/restore_studies.py copies the snapshots back to runs/optimize/, then rerun
scripts/optimize_queue.sh."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path


def snapshot(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(source / "study.db") as live, sqlite3.connect(target / "study.db") as copy:
        live.backup(copy)
    for folder in ("settings", "test", "program", "plots"):
        if (source / folder).is_dir():
            shutil.copytree(source / folder, target / folder, dirs_exist_ok=True)
    for name in ("summary.json", "invocations.jsonl", "demos-state.json"):
        if (source / name).is_file():
            shutil.copy2(source / name, target / name)


if __name__ == "__main__":
    runs = Path(sys.argv[1] if len(sys.argv) > 1 else "runs/optimize")
    if not runs.is_dir():
        sys.exit(f"no studies at {runs}: run from the repository root after `hopkit optimize`, or pass the "
                 "folder that holds them (python scripts/snapshot_studies.py RUNS)")
    for study in sorted(p for p in runs.iterdir() if (p / "study.db").is_file()):
        snapshot(study, Path("docs/runs/optimize") / study.name)
        print(f"snapshot of {study.name}")
