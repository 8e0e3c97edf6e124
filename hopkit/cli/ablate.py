"""``hopkit ablate``: a method and the paper's ablation variants (or the user's) on the same questions."""

from __future__ import annotations

import argparse
from pathlib import Path

from hopkit.cli.components import (
    add_lm_flags,
    add_question_flags,
    add_retrieval_flags,
    configure_lm,
    load_dataset,
    parse_knobs,
    pick_questions,
)
from hopkit.cli.study_file import add_study_file_flag, apply_study_file
from hopkit.knobs import PROFILES
from hopkit.paths import runs_dir, slug


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
    apply_study_file(args, required=("method",))
    from dataclasses import replace

    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.evaluation.ablation import check_ablation_folder, run_ablation
    from hopkit.evaluation.metrics import get_metric
    from hopkit.knobs import KNOBS, check_profile
    from hopkit.programs.registry import ablations, check_knobs, get_method, task_knobs
    from hopkit.report.ablation_outputs import write_outputs
    from hopkit.run_parts import open_parts
    from hopkit.spec import MECHANICS, run_meta
    from hopkit.tasks import get_task, task_metrics
    from hopkit.variants import parse_variants, select

    variants = parse_variants(args.variants, args.method) if args.variants else ablations(args.method)
    if args.only:
        variants = select(variants, args.only)
    fixed = parse_knobs(args.set)
    dataset = load_dataset(args.dataset)
    folder = Path(args.out or runs_dir() / "ablate" / slug(dataset.name) / f"{slug(args.method)}__{slug(args.lm)}")
    check_ablation_folder(folder, variants)  # before the retriever, reader and LM load
    task = get_task(args.task or dataset.task)
    settings = {}
    for variant in variants:  # every variant's knobs are checked before anything runs
        group = KNOBS.get(get_method(variant.method).knob_group or "", {})
        wanted = {**{k: v for k, v in fixed.items() if k in group}, **variant.knobs}
        check_profile(variant.profile or args.profile)
        settings[variant.name] = check_knobs(variant.method, task_knobs(variant.method, task, wanted))
    examples = pick_questions(dataset.examples, args.n, args.questions)
    metrics = [get_metric(name) for name in (args.metrics.split(",") if args.metrics else task_metrics(task, examples))]
    base = replace(spec_from_flags(args), out=None)
    # one retriever, reader and LM for every variant; each method and profile its own demonstrations (auto may
    # differ by method on a real dataset: hopkit/programs/demo_source.py)
    parts = open_parts(base, dataset, [(v.method, v.profile or args.profile) for v in variants],
                       configure_lm=lambda: configure_lm(args))

    def build(variant):
        return parts.program(variant.method, variant.profile or args.profile, settings[variant.name])

    def meta_for(variant):  # the run spec each variant ran, as eval records its own
        profile = variant.profile or args.profile
        spec = replace(base, method=variant.method, profile=profile, knobs=settings[variant.name])
        return {**run_meta(spec, dataset.name), **parts.recorded(variant.method, profile), "fixed_knobs": fixed}

    results = run_ablation(variants, build, examples, metrics, folder, meta_for, args.threads, not args.quiet,
                           mechanics=MECHANICS)
    title = (f"{args.method} ablations on {dataset.name} ({task.name}; n = {len(examples)}, {parts.backend}, "
             f"{args.lm})")
    chart = args.chart_metric if args.chart_metric in [m.name for m in metrics] else metrics[0].name
    written = write_outputs(results, metrics, folder, title, chart)
    print((folder / "table.md").read_text(encoding="utf-8"))
    print("written: " + ", ".join(str(p) for p in written.values()))
