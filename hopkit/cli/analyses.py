"""The analyses a researcher reruns on run logs: where answers are lost (``losses``), what the answer steps did
(``firings``), a pure answer step replayed (``replay``), methods by datasets against a baseline (``table``), and one
knob swept over its values (``sweep``)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from hopkit.cli import components
from hopkit.cli.table_format import add_format_flag, print_tables


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    losses = verbs.add_parser("losses", help="where each run lost its wrong answers, per step (retrieval, plan, "
                                             "review, reader, final step), from its traces")
    losses.add_argument("logs", type=Path, nargs="+")
    losses.add_argument("--list", action="store_true", help="also one line per wrong question")
    losses.add_argument("--qids", action="store_true",
                        help="only the wrong questions' qids, one a line (a file for --questions @FILE)")
    add_format_flag(losses)
    losses.set_defaults(run=cmd_losses)

    firings = verbs.add_parser("firings", help="how often each answer step acted on a run, and what it changed")
    firings.add_argument("logs", type=Path, nargs="+")
    add_format_flag(firings)
    firings.set_defaults(run=cmd_firings)

    replay = verbs.add_parser("replay", help="a pure answer step (no LM call) applied to a finished run log")
    replay.add_argument("log", type=Path)
    replay.add_argument("--step", default="date_comparison")
    replay.add_argument("--out", type=Path, required=True, help="the replayed log (pairs with LOG in hopkit compare)")
    replay.set_defaults(run=cmd_replay)

    table = verbs.add_parser("table", help="methods by datasets from a folder of DATASET/METHOD.jsonl run logs: "
                                           "each method's score and its paired difference against a baseline")
    table.add_argument("folder", type=Path)
    table.add_argument("--baseline", default="oner", help="the method every other is paired against (default: "
                                                           "%(default)s)")
    table.add_argument("--metric", default="f1")
    table.add_argument("--methods", default=None, metavar="NAME=LABEL,...",
                       help="the rows, in order, with their labels (default: every log's method, the baseline first)")
    table.add_argument("--datasets", default=None, metavar="NAME=LABEL,...",
                       help="the columns, in order, with their labels (default: every dataset folder)")
    table.add_argument("--samples", type=int, default=10_000, help="bootstrap samples of each paired interval")
    table.add_argument("--adjust", default="none", choices=["none", "bonferroni"],
                       help="bonferroni: widen every interval so that all the table's differences hold together at "
                            "95%% (default: each at 95%%)")
    add_format_flag(table)
    table.set_defaults(run=cmd_table)

    sweep = verbs.add_parser("sweep", help="one knob over its values, each question answered with every value in "
                                           "turn (shared prompt prefixes are evaluated once); a log per value")
    sweep.add_argument("--method", default="oner")
    sweep.add_argument("--knob", default="k")
    sweep.add_argument("--values", default="5,7,9,11,13,15", help="comma-separated, in the order to answer them")
    sweep.add_argument("--dataset", required=True)
    sweep.add_argument("--out-dir", type=Path, required=True)
    sweep.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="for every value")
    sweep.add_argument("--quiet", action="store_true")
    components.add_question_flags(sweep)
    components.add_profile_flag(sweep)
    components.add_lm_flags(sweep)
    components.add_retrieval_flags(sweep)
    sweep.set_defaults(run=cmd_sweep)


def _labelled(paths: list[Path]) -> dict[str, list[dict]]:
    from hopkit.evaluation.paired import read_rows

    common = Path(os.path.commonpath([p.resolve().parent for p in paths]))
    return {str(p.resolve().with_suffix("").relative_to(common.parent)): list(read_rows(p).values()) for p in paths}


def cmd_table(args: argparse.Namespace) -> None:
    from hopkit.evaluation.method_table import method_table, parse_labels

    print_tables(method_table(args.folder, args.baseline, args.metric, parse_labels(args.methods),
                              parse_labels(args.datasets), args.samples, args.adjust), args)


def cmd_losses(args: argparse.Namespace) -> None:
    from hopkit.report.losses import format_losses, lost_at

    tables = _labelled(args.logs)
    if args.qids:
        print("\n".join(dict.fromkeys(row["qid"] for rows in tables.values() for row in rows if lost_at(row))))
        return
    lines = [format_losses(tables)]
    if args.list:
        for label, rows in tables.items():
            for row in rows:
                cause = lost_at(row)
                if cause:
                    answer = (row.get("prediction") or {}).get("answer", "")
                    lines.append(f"{label} {row['qid']}  {cause:<10} gold {row['answers'][0]!r}  answer {answer!r}")
    print_tables("\n".join(lines), args)


def cmd_firings(args: argparse.Namespace) -> None:
    from hopkit.report.firings import format_firings

    print_tables(format_firings(_labelled(args.logs)), args)


def cmd_replay(args: argparse.Namespace) -> None:
    from hopkit.evaluation.paired import read_rows
    from hopkit.evaluation.run_log import refuse_other_file
    from hopkit.report.replay import replay, write_replayed

    refuse_other_file(args.out)  # an earlier replay is written again; any other file is left alone
    rows, counts = replay(list(read_rows(args.log).values()), args.step)
    write_replayed(args.log, rows, args.out, args.step)
    print(f"{args.log} -> {args.out}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"pair them: hopkit compare {args.log} {args.out}")


def cmd_sweep(args: argparse.Namespace) -> None:
    from dataclasses import replace

    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.errors import InputError
    from hopkit.evaluation.harness import format_report, summarize
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    from hopkit.evaluation.sweep import log_path, sweep
    from hopkit.knobs import parse_knobs
    from hopkit.programs.registry import check_knobs
    from hopkit.run.parts import open_parts
    from hopkit.spec import run_meta
    from hopkit.tasks import task_metrics

    fixed = parse_knobs(args.set)
    values = [v.strip() for v in args.values.split(",") if v.strip()]
    if not values:
        raise InputError("--values needs at least one value, e.g. --values 5,7,9")
    settings = {value: check_knobs(args.method, {**fixed, **parse_knobs([f"{args.knob}={value}"])})
                for value in values}  # a bad knob or value fails before anything loads
    dataset = components.load_dataset(args.dataset)
    examples = components.pick_questions(dataset.examples, args.n, args.questions)
    spec = replace(spec_from_flags(args), out=None)
    parts = open_parts(spec, dataset, configure_lm=lambda: components.configure_lm(args))  # the parts eval opens
    metrics = [get_metric(name) for name in task_metrics(parts.task, examples)]
    programs = {v: parts.program(knobs=settings[v]) for v in values}
    logs = {v: RunLog(log_path(args.out_dir, args.method, args.knob, v, args.lm),
                      {**run_meta(replace(spec, knobs=settings[v]), dataset.name), **parts.recorded()})
            for v in values}
    sweep(programs, examples, metrics, logs, progress=not args.quiet)
    wanted = {ex.qid for ex in examples}
    for value in values:
        rows = [row for row in logs[value].rows if row["qid"] in wanted]
        print(format_report(summarize(rows, metrics, logs[value].path), f"{args.method} {args.knob}={value}"))
