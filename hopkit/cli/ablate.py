"""``hopkit ablate``: a method and the paper's ablation variants (or the user's) on the same questions."""

from __future__ import annotations

import argparse
from pathlib import Path

from hopkit.cli.components import (
    add_lm_flags,
    add_question_flags,
    add_retrieval_flags,
    configure_lm,
)
from hopkit.cli.study_file import add_study_file_flag, apply_study_file
from hopkit.knobs import PROFILES


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    parser = verbs.add_parser("ablate", help="a method and its ablation variants on the same questions: tables with "
                                             "intervals, paired differences and a chart")
    parser.add_argument("--method", default=None,
                        help="searchain | ircot | tor (required; declared variants in hopkit/variants.py)")
    parser.add_argument("--dataset", default="bundled:dev")
    add_question_flags(parser)
    parser.add_argument("--variants", default=None,
                        help="your own variants: NAME:KNOB=VALUE,...;NAME2:... or a JSON file; the first is the "
                             "baseline")
    parser.add_argument("--only", default=None, help="declared variants to run, by name, comma-separated (the full "
                                                     "method always runs first): e.g. 'w/o yes_no_check,paper profile'")
    parser.add_argument("--profile", default="hopkit", choices=list(PROFILES),
                        help="the profile of every variant that does not name its own (default: %(default)s)")
    parser.add_argument("--set", action="append", default=[], help="knob=value for every variant that has the knob")
    parser.add_argument("--metrics", default=None, help="comma-separated (default: the task's metrics)")
    parser.add_argument("--task", default=None, help="multihop-qa | yes-no | fact-check | slot-filling | long-form "
                                                     "(default: the dataset's)")
    parser.add_argument("--chart-metric", default="f1")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder (default: runs/ablate/DATASET/METHOD__LM); resumed, and refused if it exists and "
                             "holds no run log of these variants")
    parser.add_argument("--quiet", action="store_true")
    add_lm_flags(parser)
    add_retrieval_flags(parser)
    add_study_file_flag(parser)
    parser.set_defaults(run=cmd_ablate)


def cmd_ablate(args: argparse.Namespace) -> None:
    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.run.ablate import run_ablation
    from hopkit.variants import parse_variants

    apply_study_file(args, required=("method",))
    variants = parse_variants(args.variants, args.method) if args.variants else None
    only = [name.strip() for name in args.only.split(",") if name.strip()] if args.only else ()
    run = run_ablation(spec_from_flags(args), variants, only, args.chart_metric, progress=not args.quiet,
                       api_key=args.api_key, configure_lm=lambda: configure_lm(args))
    print(run.table)
    print("written: " + ", ".join(str(p) for p in run.written.values()))
