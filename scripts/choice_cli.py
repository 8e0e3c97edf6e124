"""The command line the stage choices share (scripts/demos_choice.py, scripts/ircot_k_choice.py): a run folder and
one more argument, the choice printed alone for the queue, or with its reason under --explain."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def print_choice(doc: str, second: str, choose: Callable[[Path, str], tuple[object, str]],
                 choices: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument(second, choices=choices)
    parser.add_argument("--explain", action="store_true", help="print why, after the choice")
    args = parser.parse_args()
    choice, why = choose(args.folder, getattr(args, second))
    print(f"{choice}: {why}" if args.explain else choice)
