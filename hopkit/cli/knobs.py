"""``hopkit knobs METHOD [--profile P]``: every knob of a method with its effective value, range, paper value, what
it does and where it came from (the paper's section, or an addition's reason and the link to its evidence)."""

from __future__ import annotations

import argparse

from hopkit.knobs import PROFILES


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    parser = verbs.add_parser("knobs", help="a method's knobs: effective value under a profile, range, paper value, "
                                            "what each does and where it came from")
    parser.add_argument("method", help="a method name (hopkit eval --method), e.g. ircot, searchain, tor, oner")
    parser.add_argument("--profile", default="hopkit", choices=list(PROFILES), help="default: %(default)s")
    parser.add_argument("--reader", default="lm", help="the reader whose calibrated theta SearChain uses "
                                                       "(lm | lm:span | extractive:NAME); default: %(default)s")
    parser.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="show with a knob set")
    parser.set_defaults(run=cmd_knobs)


def cmd_knobs(args: argparse.Namespace) -> None:
    from hopkit.knobs import parse_knobs
    from hopkit.knobs.table import knob_rows, render_rows
    from hopkit.programs.registry import check_knobs, get_method

    method = get_method(args.method)
    given = check_knobs(args.method, parse_knobs(args.set))
    if method.knob_group is None:
        print(f"{args.method} has no knobs")
        return
    rows = knob_rows(method.knob_group, args.profile, given, reader=_reader(args.reader, method.needs_reader))
    print(f"{args.method} ({args.profile} profile): {method.description}")
    print(render_rows(rows))


def _reader(spec: str, needed: bool):
    """The LM reader (it loads nothing) for its calibrated theta; an extractive reader declares none."""
    if not needed or not (spec == "lm" or spec.startswith("lm:")):
        return None
    from hopkit.reader.loading import open_reader

    return open_reader(spec)
