"""``hopkit data``: the bundled benchmark, stored copies of hub splits, and what a paragraph word cut hides."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from hopkit.errors import InputError
from hopkit.paths import check_replaceable


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    data = verbs.add_parser("data", help="the bundled benchmark; stored copies of hub splits")
    data_verbs = data.add_subparsers(dest="action", required=True)
    build = data_verbs.add_parser("build", help="generate the bundled benchmark (seconds, deterministic)")
    build.add_argument("--out", type=Path, default=None)
    build.add_argument("--seed", type=int, default=13)
    build.add_argument("--paragraphs", type=int, default=None,
                       help="grow the world to N passages (e.g. 200000; default 2,804); use it as bundled:dev@N")
    build.set_defaults(run=cmd_data_build)
    add = data_verbs.add_parser("add", help="store a hub split's rows once, read in place of the hub from then on")
    add.add_argument("spec", help="the hub split, e.g. musique:train (IRCoT's measured demonstrations on MuSiQue)")
    add.add_argument("--from", dest="rows_file", type=Path, default=None,
                     help="a JSON lines file of the hub's rows (offline); without it the split is downloaded")
    add.set_defaults(run=cmd_data_add)
    cut = data_verbs.add_parser("cut", help="what showing each paragraph's first N words (paragraph_words) hides of a "
                                            "dataset's gold evidence: the questions with an answer only past the cut")
    cut.add_argument("--dataset", required=True, help="a dataset spec, e.g. musique:validation@/path/dev.jsonl")
    cut.add_argument("--words", type=int, nargs="+", default=None, metavar="N",
                     help="the cuts to count (default: the hopkit profile's paragraph_words)")
    cut.add_argument("--questions", default=None, metavar="A-B",
                     help="questions A to B, counted from 1, or @FILE: the qids it lists, one a line")
    cut.add_argument("--show", type=int, default=5, help="qids of cut questions listed for each cut")
    cut.add_argument("--qids", action="store_true",
                     help="only the cut questions' qids, one a line, for one cut (a file for --questions @FILE)")
    cut.set_defaults(run=cmd_data_cut)


def cmd_data_build(args: argparse.Namespace) -> None:
    from hopkit.data.bundled.build import BundledSpec, build_bundled
    from hopkit.data.registry import bundled_dir

    if args.paragraphs is not None and args.paragraphs < 1:
        raise InputError("--paragraphs must be a positive number of passages")
    if args.out is not None:  # a folder of the user's choosing: never written over where it holds other data
        check_replaceable(args.out, "manifest.json", "a bundled benchmark")
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


def cmd_data_cut(args: argparse.Namespace) -> None:
    from hopkit.data.examples import pick_questions
    from hopkit.data.registry import load_dataset_spec
    from hopkit.data.word_cut import word_cut_report
    from hopkit.knobs.declared import PARAGRAPH_WORDS

    cuts = args.words or [PARAGRAPH_WORDS]
    if any(words < 1 for words in cuts):
        raise InputError("--words takes cuts of at least 1 word (0, the whole paragraph, hides nothing)")
    if args.qids and len(cuts) > 1:
        raise InputError("--qids lists the questions of one cut: give one --words N")
    dataset = load_dataset_spec(args.dataset)
    examples = pick_questions(dataset.examples, None, args.questions)
    corpus = dataset.own_corpus()
    if args.qids:
        print("\n".join(word_cut_report(examples, corpus, cuts[0]).cut))
        return
    print(f"{dataset.name}: {len(examples)} question{'' if len(examples) == 1 else 's'}")
    for words in cuts:
        report = word_cut_report(examples, corpus, words)
        listed = f"; e.g. {', '.join(report.cut[:args.show])}" if report.cut and args.show > 0 else ""
        print(f"- {report.summary()}{listed}")
