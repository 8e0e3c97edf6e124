"""``hopkit reproduce METHOD --tune SPEC --test SPEC``: a method as its paper ran it (hopkit/reproduce/), and
``hopkit reproduce-table FOLDER ...``: the papers' table over the studies it wrote."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hopkit.cli.components import (
    add_lm_flags,
    add_retrieval_flags,
    configure_lm,
)
from hopkit.cli.study_file import add_study_file_flag, apply_study_file
from hopkit.cli.table_format import add_format_flag, print_tables
from hopkit.lm.turns_bench import MODES as TURNS_MODES
from hopkit.paths import existing_figures


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    parser = verbs.add_parser("reproduce", help="a method as its paper ran it: the paper's grid tuned on a tune split, "
                                                "the chosen setting scored once on a test split")
    parser.add_argument("method_named", nargs="?", default=None, metavar="METHOD",
                        help="oner, ircot, searchain, tor, ... (hopkit knobs METHOD lists its knobs); or --method")
    parser.add_argument("--method", default=None, help="the method, as every verb takes it")
    parser.add_argument("--tune", default=None, metavar="SPEC[A-B]",
                        help="the split the grid is tuned on, e.g. "
                             "'hotpotqa-distractor:validation@test500.jsonl[1-100]'"
                             " (methods whose paper fixes its setting need none)")
    parser.add_argument("--test", default=None, metavar="SPEC[A-B]", help="the split the chosen setting is scored on "
                        "once (required); sharing a question with --tune is refused")
    parser.add_argument("--grid", default="paper", choices=["paper", "wide"],
                        help="paper: IRCoT's K x reader with M fixed, OneR's K; wide: IRCoT's M in {1, 2, 3} too")
    parser.add_argument("--pruner", default="none", choices=["none", "median", "halving"],
                        help="none (default): every grid point answers every tune question, as the paper")
    parser.add_argument("--reader-from", type=Path, default=None, metavar="STUDY",
                        help="IRCoT: hold the reader (Direct or CoT) that STUDY's tune split chose, as the paper picks "
                             "it once per model on its first dataset; the grid then tunes K alone")
    parser.add_argument("--prompt-sets", type=int, default=1, metavar="N",
                        help="repeat with N samples of the demonstrations and report mean and deviation (IRCoT: 3)")
    parser.add_argument("--out", type=Path, default=None, help="study folder (default runs/reproduce/METHOD-DATASET); "
                        "resumed, and refused if it exists and is not a reproduce study's")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quiet", action="store_true")
    add_lm_flags(parser)
    add_retrieval_flags(parser)
    add_study_file_flag(parser)
    parser.set_defaults(run=cmd_reproduce)

    table = verbs.add_parser("reproduce-table", help="the papers' table (methods by datasets, paired differences "
                                                     "against OneR, the papers' own numbers) over reproduce folders")
    table.add_argument("folders", nargs="+", type=Path, help="folders hopkit reproduce wrote, or folders holding them")
    table.add_argument("--samples", type=int, default=10_000, help="bootstrap samples of each paired interval")
    add_format_flag(table)
    table.set_defaults(run=cmd_reproduce_table)
    add_bench_parsers(verbs)  # the benchmarks of what the protocol costs


def cmd_reproduce(args: argparse.Namespace) -> None:
    from dataclasses import replace

    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.errors import InputError
    from hopkit.run.reproduce import run_reproduce

    if args.method_named is not None:
        if args.method not in (None, args.method_named):
            raise InputError(f"reproduce {args.method_named} --method {args.method}: name the method once")
        args.method = args.method_named
    apply_study_file(args, required=("method", "test"))
    run = run_reproduce(replace(spec_from_flags(args), method=args.method), args.test, args.tune, args.reader_from,
                        args.grid, args.pruner, args.prompt_sets, progress=not args.quiet, api_key=args.api_key,
                        configure_lm=lambda: configure_lm(args))
    for result in run.results:
        scores = " ".join(f"{name} {100 * value:.1f}" for name, value in result.test_metrics.items())
        print(f"prompt set {result.prompt_set}: {result.chosen or 'paper setting'} -> test {scores} "
              f"({result.test_cost.get('lm_calls', 0):.1f} LM calls a question)")
    print(f"study: {run.folder} (hopkit reproduce-table {run.folder})")


def cmd_reproduce_table(args: argparse.Namespace) -> None:
    from hopkit.errors import InputError
    from hopkit.reproduce.hours import hours_line
    from hopkit.reproduce.progress import progress_line, unfinished
    from hopkit.reproduce.table import read_studies, reproduce_table

    running = unfinished(args.folders)
    try:
        studies = read_studies(args.folders)
    except InputError:  # no finished study: say where the unfinished ones stand, or what to pass
        if not running:
            raise
        studies = []
    lines = [reproduce_table(studies, samples=args.samples)] if studies else []
    lines += [progress_line(folder) for folder in running]
    spent = [line for folder in sorted({*(s.folder for s in studies), *running}) if (line := hours_line(folder))]
    if spent:
        lines.append("\nHours so far, from the rows' wall seconds (a shared IRCoT chain counted once):")
        lines += [f"- {line}" for line in spent]
    print_tables("\n".join(lines), args)


def add_bench_parsers(verbs: argparse._SubParsersAction) -> None:
    parser = verbs.add_parser("bench-demos", help="what few-shot prompts cost on the offline LM: IRCoT zero-shot "
                                                  "and few-shot, prompt tokens evaluated and seconds a question")
    parser.add_argument("--dataset", required=True, help="e.g. 'ircot:dev100.jsonl' (a BM25 index is built if missing)")
    parser.add_argument("--demos-from", required=True, help="the few-shot modes' demonstrations, e.g. "
                                                           "ircot-demos:/path/hotpotqa.txt")
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--lm", default="local:qwen1.5b")
    parser.add_argument("--method", default="ircot")
    parser.add_argument("--profile", default="paper", choices=["paper", "hopkit"])
    parser.add_argument("--modes", default="zero-shot,few-shot",
                        help="comma list of zero-shot, few-shot, few-shot-no-reuse")
    parser.add_argument("--out", type=Path, default=None, help="JSON of finished modes; a rerun skips them")
    parser.set_defaults(run=cmd_bench_demos)

    grid = verbs.add_parser("bench-grid", help="what a paper's tuning grid costs: setting by setting against its "
                                               "settings sharing work (OneR's nested K, IRCoT's one chain per K)")
    grid.add_argument("method", choices=["oner", "ircot"])
    grid.add_argument("--dataset", required=True, help="tune questions, e.g. 'musique:validation@dev100.jsonl' (the "
                                                       "first N are used; a BM25 index is built if missing)")
    grid.add_argument("--demos-from", required=True, help="the paper's demonstrations, e.g. "
                                                          "ircot-demos:/path/musique.txt")
    grid.add_argument("--n", type=int, default=5)
    grid.add_argument("--lm", default="local:qwen1.5b")
    grid.add_argument("--out", type=Path, default=None, help="JSON of finished modes; a rerun skips them")
    grid.set_defaults(run=cmd_bench_grid)

    build = verbs.add_parser("bench-lm", help="the installed llama.cpp build on this CPU: the instruction sets it "
                                              "uses, prompt and generation tokens a second")
    build.add_argument("--model", default="qwen1.5b", help="a model pack name or a GGUF file")
    build.add_argument("--prompt-tokens", type=int, default=1024)
    build.add_argument("--generate", type=int, default=64, help="decode steps timed after the prompt")
    build.add_argument("--repeats", type=int, default=2, help="runs; each figure is their median")
    build.add_argument("--threads", type=int, default=None, help="default: every core")
    build.add_argument("--out", type=Path, default=None, help="also write the figures as JSON")
    build.set_defaults(run=cmd_bench_lm)

    turns = verbs.add_parser("bench-turns", help="two processes calling the local LM at once: side by side and "
                                                 "taking CPU turns, each against one process alone (calls a second)")
    turns.add_argument("--model", default="qwen0.5b", help="a model pack name or a GGUF file")
    turns.add_argument("--calls", type=int, default=8, help="calls in each process of each mode")
    turns.add_argument("--words", type=int, default=300, help="about how many words each call's prompt has")
    turns.add_argument("--modes", default=",".join(TURNS_MODES), help="comma-separated, run in this order")
    turns.add_argument("--load-seconds", type=float, default=30.0,
                       help="seconds the processes of a mode get to load the model before they start together")
    turns.add_argument("--out", type=Path, default=None, help="also write the figures as JSON")
    turns.set_defaults(run=cmd_bench_turns)


def cmd_bench_demos(args: argparse.Namespace) -> None:
    from hopkit.errors import InputError
    from hopkit.evaluation.demo_prefix_bench import MODES, BenchRequest, bench, format_bench

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise InputError(f"--modes takes {', '.join(MODES)}; got {args.modes!r}")
    if args.n < 1:
        raise InputError("--n must be at least 1")
    request = BenchRequest(args.dataset, args.demos_from, args.n, args.lm, args.profile, args.method)
    try:
        results = bench(request, modes, args.out)
    except RuntimeError as error:
        raise InputError(str(error)) from None
    print(format_bench(results))


def cmd_bench_lm(args: argparse.Namespace) -> None:
    import json

    from hopkit.errors import InputError
    from hopkit.lm.build_check import bench_build, format_bench
    from hopkit.lm.model_packs import resolve_model_file

    if args.prompt_tokens < 16 or args.generate < 1 or args.repeats < 1:
        raise InputError("--prompt-tokens must be at least 16, --generate and --repeats at least 1")
    existing_figures(args.out)  # a file that is not such figures is refused before the benchmark, not after it
    result = bench_build(resolve_model_file(args.model), args.prompt_tokens, args.generate, args.repeats,
                         args.threads, say=lambda text: print(text, file=sys.stderr))
    print(format_bench(result))
    if args.out:
        args.out.write_text(json.dumps(result.to_dict(), indent=2))


def cmd_bench_grid(args: argparse.Namespace) -> None:
    from hopkit.errors import InputError
    from hopkit.reproduce.grid_bench import GridBenchRequest, bench, format_bench

    if args.n < 1:
        raise InputError("--n must be at least 1")
    request = GridBenchRequest(args.method, args.dataset, args.demos_from, args.n, args.lm)
    try:
        results = bench(request, args.out, say=lambda text: print(text, file=sys.stderr))
    except RuntimeError as error:
        raise InputError(str(error)) from None
    print(format_bench(results))


def cmd_bench_turns(args: argparse.Namespace) -> None:
    import json

    from hopkit.errors import InputError
    from hopkit.lm.model_packs import resolve_model_file
    from hopkit.lm.turns_bench import MODES, format_turns, run_mode

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or any(m not in MODES for m in modes):
        raise InputError(f"--modes takes {', '.join(MODES)}; got {args.modes!r}")
    if args.calls < 1 or args.words < 1:
        raise InputError("--calls and --words must be at least 1")
    existing_figures(args.out)
    model = resolve_model_file(args.model)
    results = []
    for mode in modes:
        print(f"{mode}: {args.calls} calls in each process ...", file=sys.stderr)
        try:
            results.append(run_mode(mode, model, args.calls, args.words, args.load_seconds))
        except RuntimeError as error:
            raise InputError(str(error)) from None
    print(format_turns(results))
    if args.out:
        args.out.write_text(json.dumps([r.to_dict() for r in results], indent=2))
