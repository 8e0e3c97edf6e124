"""Flags into a run spec (hopkit/spec.py): from the flags alone, or from ``--config run.toml`` or ``--like LOG``
with the flags the user gave on top."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hopkit.spec import RunSpec, from_log, from_toml, override

# spec field -> how to read it from the flags
_FLAG_VALUES = {
    "method": lambda a: a.method, "dataset": lambda a: a.dataset, "questions": lambda a: getattr(a, "questions", None),
    "n": lambda a: getattr(a, "n", None), "profile": lambda a: getattr(a, "profile", "hopkit"),
    "demos_from": lambda a: getattr(a, "demos_from", "auto"),
    "program": lambda a: str(a.program) if getattr(a, "program", None) is not None else None,
    "task": lambda a: getattr(a, "task", None),
    "metrics": lambda a: tuple(m.strip() for m in a.metrics.split(",") if m.strip()) if getattr(a, "metrics", None)
    else None,
    "retriever": lambda a: a.retriever, "index": lambda a: str(a.index) if a.index is not None else None,
    "plaid": lambda a: getattr(a, "plaid", None), "reader": lambda a: getattr(a, "reader", "lm"), "lm": lambda a: a.lm,
    "api_base": lambda a: a.api_base, "max_tokens": lambda a: a.max_tokens,
    "lm_timeout": lambda a: getattr(a, "lm_timeout", 120.0), "cache": lambda a: not a.no_cache,
    "threads": lambda a: getattr(a, "threads", 1), "out": lambda a: str(a.out) if getattr(a, "out", None) else None,
}


def spec_from_flags(args: argparse.Namespace) -> RunSpec:
    from hopkit.knobs import parse_knobs

    return RunSpec(knobs=parse_knobs(getattr(args, "set", [])), **{name: read(args) for name, read in _FLAG_VALUES.items()})


def eval_spec(args: argparse.Namespace, defaults: argparse.Namespace) -> RunSpec:
    """The run ``hopkit eval`` was asked for: ``--config`` or ``--like`` as the base, then each flag the user gave
    (one whose value differs from its default) on top; checked before anything loads."""
    flags = spec_from_flags(args)
    if args.config is None and args.like is None:
        return flags.checked()
    if args.config is not None and args.like is not None:
        from hopkit.errors import InputError

        raise InputError("give --config or --like, not both")
    base = from_toml(args.config) if args.config is not None else from_log(args.like)
    unset = spec_from_flags(defaults)
    given: dict[str, Any] = {name: getattr(flags, name) for name in _FLAG_VALUES
                             if getattr(flags, name) != getattr(unset, name)}
    if flags.knobs:
        given["knobs"] = flags.knobs
    return override(base, given).checked()


def add_spec_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, metavar="RUN.toml",
                        help="the run's settings from a TOML file (the fields of hopkit.spec.RunSpec); flags override")
    parser.add_argument("--like", type=Path, default=None, metavar="LOG",
                        help="rerun a logged run's settings (its .meta.json); flags override, e.g. --lm or --out")
