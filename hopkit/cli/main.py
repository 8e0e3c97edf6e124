"""``hopkit`` command line: errors a user can fix are one line and a non-zero exit."""

from __future__ import annotations

import argparse
import sys

from hopkit.cli.environment import apply_defaults
from hopkit.cli.plugins import load_user_methods


def build_parser() -> argparse.ArgumentParser:
    from hopkit.cli import (
        ablate,
        analyses,
        answer,
        calibrate,
        data,
        knobs,
        models,
        optimize,
        report,
        reproduce,
        retrieval,
    )

    parser = argparse.ArgumentParser(prog="hopkit", description="Multi-hop retrieval-augmented reasoning with DSPy.")
    verbs = parser.add_subparsers(dest="verb", required=True)
    # each verb's flags and command in one file of hopkit/cli/
    for verb_file in (data, retrieval, models, answer, report, analyses, ablate, optimize, reproduce, calibrate, knobs):
        verb_file.add_parsers(verbs)
    return parser


def main(argv: list[str] | None = None) -> int:
    apply_defaults()
    from hopkit.errors import HopkitError

    args = build_parser().parse_args(argv)
    try:
        load_user_methods()
        status = args.run(args)
    except HopkitError as error:
        print(f"hopkit: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hopkit: interrupted; finished work is saved, run the same command again to resume", file=sys.stderr)
        return 130
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
