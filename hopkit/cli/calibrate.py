"""``hopkit calibrate-reader``: a reader's confidence against "this passage answers the query".

Each (query, top-1 passage) pair's reading goes to a JSONL log as it finishes, so an interrupted run
resumes where it stopped; the table is computed from the whole log.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tqdm import tqdm

from hopkit.calibration.pair_log import PairLog
from hopkit.calibration.pairs import QUERY_SOURCES, calibration_pairs
from hopkit.calibration.table import calibrate, format_calibration
from hopkit.cli.components import add_lm_flags, add_retrieval_flags, configure_lm, load_dataset, load_retriever
from hopkit.errors import InputError
from hopkit.paths import runs_dir, slug
from hopkit.programs.searchain.judgment import probability_confidence


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    parser = verbs.add_parser("calibrate-reader", help="reliability table of a reader's confidence and a suggested "
                                                       "SearChain theta")
    parser.add_argument("--dataset", default="bundled:dev")
    parser.add_argument("--n", type=int, default=None, help="first n questions")
    parser.add_argument("--queries", default="auto", choices=QUERY_SOURCES,
                        help="hops: the dataset's single-hop queries; questions: the questions; auto: hops if present")
    parser.add_argument("--depth", type=int, default=3,
                        help="passages per query, from the top (the ranks below 1 supply passages that do not answer)")
    parser.add_argument("--bins", type=int, default=10)
    parser.add_argument("--out", type=Path, default=None,
                        help="pair log (JSONL; resumes, and refuses a log of readings made with other settings)")
    parser.add_argument("--quiet", action="store_true")
    add_lm_flags(parser)
    add_retrieval_flags(parser)
    parser.set_defaults(run=cmd_calibrate_reader)


def cmd_calibrate_reader(args: argparse.Namespace) -> None:
    from hopkit.reader.loading import open_reader

    if args.n is not None and args.n < 1:
        raise InputError("--n must be at least 1")
    if args.depth < 1:
        raise InputError("--depth must be at least 1")
    if args.bins < 1:
        raise InputError("--bins must be at least 1")
    dataset = load_dataset(args.dataset)
    examples = dataset.examples[: args.n] if args.n else dataset.examples
    retriever = load_retriever(args, dataset)
    out = Path(args.out or runs_dir() / "calibration" / slug(dataset.name) /
               f"{slug(args.reader)}__{slug(args.retriever)}__{slug(args.lm)}__{args.queries}__top{args.depth}.jsonl")
    # the settings a reading depends on (--n and --bins only choose which pairs and how the table bins them)
    log = PairLog(out, {"dataset": dataset.name, "dataset_spec": args.dataset, "reader": args.reader,
                        "retriever": args.retriever, "queries": args.queries, "depth": args.depth,
                        **({"lm": args.lm} if args.reader.startswith("lm") else {})})
    reader = open_reader(args.reader)
    if args.reader.startswith("lm"):
        configure_lm(args)
    done = log.records
    pairs = list(calibration_pairs(examples, retriever, args.queries, args.depth))
    pending = [p for p in pairs if p.key not in done]
    if len(pending) < len(pairs):
        print(f"resuming {out}: {len(pairs) - len(pending)} of {len(pairs)} pairs already read")
    scale = getattr(reader, "confidence_scale", "probability")
    for pair in tqdm(pending, desc="calibrate-reader", unit="pair", disable=args.quiet):
        span = reader.read(pair.query, [pair.passage])
        log.append({"key": pair.key, "qid": pair.qid, "query": pair.query, "pid": pair.passage.pid,
                    "answers": pair.answers, "confidence": probability_confidence(span.score, scale),
                    "span": span.text, "failed": span.failed})
    records = [(done[p.key]["confidence"], done[p.key]["answers"]) for p in pairs]
    print(format_calibration(calibrate(records, args.bins), f"{args.reader} on {dataset.name} ({args.retriever}, "
                                                            f"{args.queries} queries, top {args.depth})"))
    failed = sum(1 for p in pairs if done[p.key].get("failed"))
    if failed:
        print(f"reader outputs that did not parse: {failed}")
    print(f"pairs: {out}")

