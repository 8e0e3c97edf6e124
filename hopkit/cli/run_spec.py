"""Flags into a run spec (hopkit/spec.py): from the flags alone, or from ``--config run.toml`` or ``--like LOG``
with the flags the user gave on top."""

from __future__ import annotations

import argparse
from dataclasses import fields
from pathlib import Path
from typing import Any

from hopkit.spec import RunSpec, from_log, from_toml, override

# spec field -> how to read it from the flags (a verb without the flag leaves the spec's default)
_DEFAULT = RunSpec()


def _flag(name: str, convert=lambda value: value):
    def read(args: argparse.Namespace) -> Any:
        value = getattr(args, name, None)
        return getattr(_DEFAULT, name) if value is None else convert(value)
    return read


# every field of RunSpec is read from the flag of its own name; these are read otherwise (a path flag gives a Path,
# --metrics a comma list, --no-cache the opposite of cache); knobs come from --set
_READ_OTHERWISE = {
    "program": _flag("program", str), "index": _flag("index", str), "out": _flag("out", str),
    "metrics": _flag("metrics", lambda text: tuple(m.strip() for m in text.split(",") if m.strip()) or None),
    "cache": lambda a: not getattr(a, "no_cache", False),
}
_FLAG_VALUES = {f.name: _READ_OTHERWISE.get(f.name, _flag(f.name)) for f in fields(RunSpec) if f.name != "knobs"}


def spec_from_flags(args: argparse.Namespace) -> RunSpec:
    from hopkit.knobs import parse_knobs

    return RunSpec(knobs=parse_knobs(getattr(args, "set", [])),
                   **{name: read(args) for name, read in _FLAG_VALUES.items()})


def eval_spec(args: argparse.Namespace) -> RunSpec:
    """The run ``hopkit eval`` was asked for: ``--config`` or ``--like`` as the base, then each flag the user gave
    (one whose value differs from its default) on top. ``hopkit.run.eval.run_eval`` checks it before anything loads."""
    flags = spec_from_flags(args)
    if args.config is None and args.like is None:
        return flags
    if args.config is not None and args.like is not None:
        from hopkit.errors import InputError

        raise InputError("give --config or --like, not both")
    base = from_toml(args.config) if args.config is not None else from_log(args.like)
    given: dict[str, Any] = {name: getattr(flags, name) for name in _FLAG_VALUES
                             if getattr(flags, name) != getattr(_DEFAULT, name)}
    if flags.knobs:
        given["knobs"] = flags.knobs
    return override(base, given)


def add_spec_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, metavar="RUN.toml",
                        help="the run's settings from a TOML file (the fields of hopkit.spec.RunSpec); flags override")
    parser.add_argument("--like", type=Path, default=None, metavar="LOG",
                        help="rerun a logged run's settings (its .meta.json); flags override, e.g. --lm or --out")
