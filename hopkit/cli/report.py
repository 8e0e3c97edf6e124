"""``hopkit report`` and ``hopkit compare``: finished run logs and study folders read again, alone or paired
(docs/reports.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from hopkit.cli.components import add_question_flags, load_dataset, pick_questions
from hopkit.cli.table_format import add_format_flag, print_tables
from hopkit.errors import InputError
from hopkit.tasks import DEFAULT_TASK


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    report = verbs.add_parser("report", help="the eval table of finished run logs, an optimize study folder's "
                                             "summary, or several studies side by side (chosen vs trial 0 on "
                                             "test, paired and pooled)")
    report.add_argument("runs", type=Path, nargs="+")
    report.add_argument("--n", type=int, default=None, help="first n rows only")
    report.add_argument("--html", type=Path, default=None,
                        help="write one self-contained page (summary, questions, traces, filters; every run side by "
                        "side, paired against the first)")
    report.add_argument("--title", default=None, help="the page's title")
    report.add_argument("--dataset", default=None,
                        help="where citations' titles and paragraphs come from (default: the dataset in the first "
                        "log's settings)")
    add_format_flag(report)
    report.set_defaults(run=cmd_report)

    compare = verbs.add_parser("compare", help="paired difference of two run logs of the same questions, "
                               "with 95%% bootstrap intervals, and the questions where they disagree",
                               formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    compare.add_argument("run_a", type=Path, help="run log A (the baseline)")
    compare.add_argument("run_b", type=Path, help="run log B (compared against A: B - A)")
    compare.add_argument("--metrics", default=None,
                         help="comma-separated; none given: the task's metrics that both logs hold")
    compare.add_argument("--samples", type=int, default=10_000, help="bootstrap resamples")
    compare.add_argument("--seed", type=int, default=0)
    compare.add_argument("--show", type=int, default=50, help="disagreeing questions listed")
    compare.add_argument("--by-form", nargs="?", const="f1", default=None, metavar="METRIC",
                         help="also split METRIC (default f1) by question form: yes/no, either-or, open")
    compare.add_argument("--dataset", default=None,
                         help="the dataset the logs answered: with --questions or --n, only those of its questions "
                              "are paired (e.g. --questions 21-82: the questions a choice made on 1-20 never saw)")
    add_question_flags(compare)
    add_format_flag(compare)
    compare.set_defaults(run=cmd_compare)


def cmd_report(args: argparse.Namespace) -> None:
    """Summarise finished run logs again (the same table eval prints, in each log's task metrics), or write
    them as one page."""
    from hopkit.evaluation.harness import format_report, summarize
    from hopkit.evaluation.metrics import get_metric
    from hopkit.report.runs import load_run

    if args.html is not None:
        from hopkit.paths import check_page
        from hopkit.report.page import build_page

        check_page(args.html)
        from hopkit.report.runs import cited_passages

        runs = [load_run(p, args.n) for p in args.runs]  # a file that is not a run log is refused here
        passages, note = cited_passages(args.runs, args.dataset)
        page = build_page(runs, args.title or " vs ".join(run.label for run in runs), passages, note)
        args.html.parent.mkdir(parents=True, exist_ok=True)
        args.html.write_text(page, encoding="utf-8")
        print(f"report: {args.html} ({sum(len(run.rows) for run in runs)} rows from {len(runs)} run(s); {note})")
        return
    studies = [path for path in args.runs if path.is_dir() and (path / "summary.json").is_file()]
    for path in args.runs:
        if path in studies:
            from hopkit.optimize.setting_table import study_settings_table
            from hopkit.optimize.summary import read_summary, summary_rows

            summary = read_summary(path)
            print_tables(summary_rows(summary, path), args)
            table = study_settings_table(summary, path)
            if table:
                print_tables(table, args)
            continue
        if path.is_dir():
            from hopkit.optimize.setting_table import running_study_table

            table = running_study_table(path)
            if table is None:
                raise InputError(f"{path} is a folder without an optimize study's summary.json or setting logs; "
                                 "pass a run log (.jsonl) or a study folder")
            print_tables(table, args)
            continue
        run = load_run(path, args.n)
        label = path.stem + (f" ({run.task.name})" if run.task.name != DEFAULT_TASK else "")
        print_tables(format_report(summarize(run.rows, [get_metric(n) for n in run.metrics], path), label), args)
    if len(studies) > 1:  # side by side on their test splits, then the choice rules across them
        from hopkit.optimize.choice_rules import choice_rules_table
        from hopkit.optimize.studies_table import studies_table

        print_tables(studies_table(studies), args)
        print_tables(choice_rules_table(studies), args)


def picked_qids(args: argparse.Namespace) -> list[str]:
    """The qids ``--questions``/``--n`` pick from ``--dataset``, in the dataset's order."""
    if not args.dataset:
        raise InputError("--questions and --n pick questions by their place in a dataset: name it with --dataset")
    return [str(example.qid) for example in pick_questions(load_dataset(args.dataset).examples, args.n, args.questions)]


def cmd_compare(args: argparse.Namespace) -> None:
    """Paired difference B - A over the questions both logs answered."""
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.paired import compare_runs, format_comparison, format_form_split, read_rows
    from hopkit.report.runs import load_run
    from hopkit.report.setting_diff import differences_line

    if args.samples < 100:
        raise InputError("--samples must be at least 100")
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else None
    if metrics:
        for name in metrics:
            get_metric(name)  # an unknown name is refused with the known ones, before any log is read
    rows_a, rows_b = read_rows(args.run_a), read_rows(args.run_b)
    if args.questions or args.n is not None:
        picked = picked_qids(args)  # the dataset is read once for both logs
        rows_a, rows_b = ({q: rows[q] for q in picked if q in rows} for rows in (rows_a, rows_b))
    if metrics is None:
        run = load_run(args.run_a)
        held = [m for m in run.metrics if all(m in (r.get("metrics") or {}) for r in rows_b.values())]
        metrics = held or None
    result = compare_runs(rows_a, rows_b, metrics, args.samples, args.seed)
    print_tables(format_comparison(result, str(args.run_a), str(args.run_b), args.show,
                                   settings=differences_line(args.run_a, args.run_b)), args)
    if args.by_form:
        print_tables(format_form_split(rows_a, rows_b, args.by_form, args.samples, args.seed), args)
