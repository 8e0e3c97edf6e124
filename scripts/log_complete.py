"""Exit 0 when every run log named holds at least N questions answered without an error (a log's last row per
question counts, as the harness reads it), else 1. The queues call it to skip a finished run without starting
Python with hopkit's imports (seconds per run on a restart). Standard library only.

    python3 scripts/log_complete.py N LOG [LOG ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def answered(path: Path) -> int:
    final: dict[str, dict] = {}
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "qid" in row:
            final[str(row["qid"])] = row
    return sum(1 for row in final.values() if not row.get("error"))


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    n = int(argv[0])
    return 0 if all(answered(Path(log)) >= n for log in argv[1:]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
