"""The command line the stage choices share (scripts/demos_choice.py, scripts/k_choice.py): a run folder and the
arguments the choice takes, the choice printed alone for the queue, or with its reason under --explain."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def print_choice(doc: str, arguments: dict[str, list[str] | None],
                 choose: Callable[..., tuple[object, str]]) -> None:
    """``arguments``: each positional argument after the folder, with its allowed values (None: any)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("folder", type=Path)
    for name, choices in arguments.items():
        parser.add_argument(name, choices=choices)
    parser.add_argument("--explain", action="store_true", help="print why, after the choice")
    parser.add_argument("--first-stage", action="store_true",
                        help="the choice on the first stage's questions alone, without the check on the questions "
                             "grown after them (what the queue grows: a check made part way must not stop it)")
    args = parser.parse_args()
    choice, why = choose(args.folder, *(getattr(args, name) for name in arguments), held_out=not args.first_stage)
    print(f"{choice}: {why}" if args.explain else choice)
