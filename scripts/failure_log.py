"""The command line the failure scripts share: one run log, and --list for a line per question."""

from __future__ import annotations

import argparse
from pathlib import Path

from hopkit.evaluation.paired import read_rows


def read_failure_log(doc: str) -> tuple[list[dict], bool]:
    """The log's rows and whether to list each question; a bad path or a file that is no run log raises the
    harness's one-line error (the scripts exit through hopkit.errors.exit_on_error)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--list", action="store_true", help="one line per question")
    args = parser.parse_args()
    return list(read_rows(args.log).values()), args.list
