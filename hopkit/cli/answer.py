"""The verbs that answer questions: ``hopkit demo`` (the main job on the embedded default), ``ask`` and ``eval``,
each through the run spec its flags give (hopkit/run/eval.py)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import dspy

from hopkit.cli.components import (
    add_lm_flags,
    add_profile_flag,
    add_question_flags,
    add_retrieval_flags,
    configure_lm,
    load_dataset,
)
from hopkit.cli.run_spec import add_spec_flags
from hopkit.errors import InputError
from hopkit.paths import runs_dir, slug


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    demo = verbs.add_parser("demo", help="the main job on the bundled benchmark: IRCoT step by step on its first "
                                         "question, then OneR and IRCoT on its first questions, paired")
    demo.add_argument("--n", type=int, default=6, help="the first N questions both methods answer")
    demo.add_argument("--max-demos", type=int, default=4,
                      help="IRCoT's demonstrations per prompt here (its max_demos knob), so that the demo fits ten "
                           "minutes on 2 cores; the profiles pack up to 15, as hopkit eval does")
    demo.add_argument("--quiet", action="store_true", help="no progress bars")
    add_profile_flag(demo)
    add_lm_flags(demo)
    demo.set_defaults(run=cmd_demo)

    for name, run, text in [("ask", cmd_ask, "answer one question"),
                            ("eval", cmd_eval, "evaluate a method on a dataset")]:
        verb = verbs.add_parser(name, help=text)
        if name == "ask":
            verb.add_argument("question")
            verb.add_argument("--show-trace", action="store_true")
        else:
            add_question_flags(verb)
            verb.add_argument("--threads", type=int, default=1)
            verb.add_argument("--metrics", default=None, help="comma-separated (default: the task's metrics)")
            verb.add_argument("--out", type=Path, default=None, help="JSONL of rows (resumed if it exists)")
            verb.add_argument("--quiet", action="store_true", help="no progress bar")
            verb.add_argument("--per-question", action="store_true", help="print each question's scores and cost")
            add_spec_flags(verb)
        verb.add_argument("--method", default="oner")
        verb.add_argument("--program", type=Path, default=None,
                          help="a saved program folder from hopkit optimize (its method, knobs and demos)")
        verb.add_argument("--dataset", default="bundled:dev")
        verb.add_argument("--task", default=None, help="multihop-qa | yes-no | fact-check | slot-filling | long-form "
                                                       "(default: the dataset's)")
        verb.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                          help="set a knob over the profile's value (hopkit knobs METHOD lists them)")
        add_profile_flag(verb)
        add_lm_flags(verb)
        add_retrieval_flags(verb)
        verb.set_defaults(run=run)


def _program(args: argparse.Namespace, dataset, configure_lm: Callable[[], object]) -> tuple[dspy.Module, object]:
    """The program the flags describe and the corpus its citations point into (``hopkit.run.eval.build`` on the flags'
    run spec)."""
    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.run.eval import build

    built = build(spec_from_flags(args).checked(), dataset, configure_lm)
    return built.program, built.parts.corpus


def _print_answer(question: str | None, prediction: dspy.Prediction, corpus, gold: list[str] | None = None) -> None:
    if question is not None:
        print(f"Q: {question}")
    print(f"A: {prediction.answer or '(no answer)'}")
    for n, pid in enumerate(prediction.citations, start=1):
        if corpus is None or pid not in corpus:
            print(f"  [{n}] {pid}")
            continue
        passage = corpus[pid]
        mark = " (gold)" if gold and pid in gold else ""
        print(f"  [{n}] {pid}{mark} | {passage.title}: {passage.text[:120]}{'...' if len(passage.text) > 120 else ''}")


def cmd_demo(args: argparse.Namespace) -> None:
    """The main job on the embedded default: IRCoT's interleaved steps on the bundled benchmark's first question,
    then OneR and IRCoT on its first questions, each through the run spec, with the paired difference."""
    from dataclasses import replace

    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.data.registry import load_bundled
    from hopkit.evaluation.harness import format_report
    from hopkit.evaluation.paired import compare_runs, format_comparison
    from hopkit.lm.usage import usage_scope
    from hopkit.programs.ircot.rendering import render_steps
    from hopkit.retrieval.loading import bm25_of
    from hopkit.run.eval import build, run_eval

    if args.n < 1:
        raise InputError("--n must be at least 1")
    if args.max_demos < 1:
        raise InputError("--max-demos must be at least 1")
    dataset = load_bundled("dev")
    corpus = dataset.own_corpus()
    bm25_of(corpus, dataset.corpus_name)  # the demo's index, built once
    base = replace(spec_from_flags(args), dataset="bundled:dev", n=args.n, retriever="bm25", out=None).checked()
    lm = configure_lm(args)  # one model for every run below
    share_lm = lambda: dspy.configure(lm=lm)  # noqa: E731
    first = dataset.examples[0]
    ircot = replace(base, method="ircot", knobs={**base.knobs, "max_demos": args.max_demos})
    print(f"== IRCoT on the bundled benchmark's first question, step by step ({args.lm}, {args.profile}; "
          f"{args.max_demos} demonstrations a prompt, where hopkit eval packs up to 15) ==")
    built = build(ircot, dataset, share_lm)
    with usage_scope():
        prediction = built.program(question=first.question)
    title = lambda pid: corpus[pid].title if pid in corpus else pid  # noqa: E731
    print(f"Q: {first.question}")
    print(render_steps(prediction.trace, len(prediction.retrieved), title))
    _print_answer(None, prediction, corpus, first.gold_pids)
    print(f"   gold answer: {first.answers[0]}\n")
    print(f"== OneR and IRCoT on the first {args.n} questions (the split's order, none picked) ==")
    rows, logs = {}, {}
    for method, spec in (("oner", replace(base, method="oner")), ("ircot", ircot)):
        logs[method] = runs_dir() / "demo" / f"{method}__{slug(args.lm)}__{args.profile}__{args.max_demos}-demos.jsonl"
        run = run_eval(replace(spec, out=str(logs[method])), progress=not args.quiet, configure_lm=share_lm)
        print(format_report(run.report, run.title))
        rows[method] = {row["qid"]: row for row in run.rows}
    comparison = compare_runs(rows["oner"], rows["ircot"], ["em", "f1", "recall@15"], samples=2000)
    print(format_comparison(comparison, "OneR", "IRCoT", show=0))
    if comparison.disagreements:
        print(f"each of them, with both answers: hopkit compare {logs['oner']} {logs['ircot']}")
    print(f"runs: {runs_dir() / 'demo'}; at n = {args.n} one question moves a mean by {100 / args.n:.0f} points, so "
          "read the interval, not the difference")


def render_trace(trace: dict) -> str:
    """The method's own rendering of its trace for a terminal (its views' ``text``; JSON where it has none)."""
    from hopkit.programs.registry import views_of

    return views_of(trace).text(trace)


def cmd_ask(args: argparse.Namespace) -> None:
    from hopkit.lm.usage import usage_scope

    question = (args.question or "").strip()
    if not question:
        raise InputError('the question is empty; ask e.g. hopkit ask "Where was the founder of X born?"')
    # with --index the question is answered over that index's own corpus, whatever it holds
    dataset = None if args.index else load_dataset(args.dataset)
    program, corpus = _program(args, dataset, lambda: configure_lm(args))
    with usage_scope() as usage:
        prediction = program(question=question)
    _print_answer(question, prediction, corpus)
    if args.show_trace:
        print(render_trace(prediction.trace))
    cost = usage.to_dict()
    print(f"({cost['lm_calls']} LM calls, {cost['prompt_tokens']}+{cost['completion_tokens']} tokens, "
          f"{cost['retrievals']} retrievals, {cost['seconds']:.1f}s)")


def cmd_eval(args: argparse.Namespace) -> int:
    from hopkit.cli.run_spec import eval_spec
    from hopkit.evaluation.harness import failed_questions_line, format_report, format_rows
    from hopkit.run.eval import run_eval

    spec = eval_spec(args)
    run = run_eval(spec, api_key=args.api_key, progress=not args.quiet)
    if args.per_question:
        print(format_rows(run.rows))
    print(format_report(run.report, run.title))
    print(f"rows: {run.path}")
    if run.report.errors:  # the table stands, but the run is not finished: say so, and how to finish it
        print(f"hopkit: {failed_questions_line(run.report)}", file=sys.stderr)
        return 1
    return 0
