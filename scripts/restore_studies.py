"""Copy the committed study snapshots in docs/runs/optimize/ back to runs/optimize/, so a fresh machine resumes
the optimizer's queue (`bash scripts/optimize_queue.sh`) where the last snapshot left it: finished studies replay
from their storage in seconds, an unfinished one continues with its next trial. A study folder that already exists
under runs/optimize/ is never touched, so live work is not overwritten by an older snapshot."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def restore(snapshots: Path, runs: Path) -> list[str]:
    restored = []
    for snapshot in sorted(p for p in snapshots.iterdir() if (p / "study.db").is_file()):
        target = runs / snapshot.name
        if target.exists():
            continue
        shutil.copytree(snapshot, target)
        restored.append(snapshot.name)
    return restored


if __name__ == "__main__":
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/runs/optimize")
    target = Path(sys.argv[2] if len(sys.argv) > 2 else "runs/optimize")
    if not source.is_dir():
        sys.exit(f"no snapshots at {source}: run from the repository root, or pass the snapshot folder "
                 "(python scripts/restore_studies.py SNAPSHOTS [RUNS])")
    target.mkdir(parents=True, exist_ok=True)
    names = restore(source, target)
    print(f"restored {len(names)} studies into {target}: {', '.join(names) or 'none (all present)'}")
