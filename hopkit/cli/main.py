"""``hopkit`` command line: errors a user can fix are one line and a non-zero exit."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hopkit.cli.environment import apply_defaults
from hopkit.cli.plugins import load_user_methods
from hopkit.retrieval.colbert.torch_kmeans import KMEANS_BACKENDS


def build_parser() -> argparse.ArgumentParser:
    from hopkit.cli import commands
    from hopkit.cli.components import add_lm_flags, add_profile_flag, add_question_flags, add_retrieval_flags

    parser = argparse.ArgumentParser(prog="hopkit", description="Multi-hop retrieval-augmented reasoning with DSPy.")
    verbs = parser.add_subparsers(dest="verb", required=True)

    data = verbs.add_parser("data", help="the bundled benchmark; stored copies of hub splits")
    data_verbs = data.add_subparsers(dest="action", required=True)
    build = data_verbs.add_parser("build", help="generate the bundled benchmark (seconds, deterministic)")
    build.add_argument("--out", type=Path, default=None)
    build.add_argument("--seed", type=int, default=13)
    build.add_argument("--paragraphs", type=int, default=None,
                       help="grow the world to N passages (e.g. 200000; default 2,804); use it as bundled:dev@N")
    build.set_defaults(run=commands.cmd_data_build)
    add = data_verbs.add_parser("add", help="store a hub split's rows once, read in place of the hub from then on")
    add.add_argument("spec", help="the hub split, e.g. musique:train (IRCoT's measured demonstrations on MuSiQue)")
    add.add_argument("--from", dest="rows_file", type=Path, default=None,
                     help="a JSON lines file of the hub's rows (offline); without it the split is downloaded")
    add.set_defaults(run=commands.cmd_data_add)

    index = verbs.add_parser("index", help="build a retrieval index over a corpus")
    index.add_argument("--backend", default="bm25", choices=["bm25", "colbert"])
    _add_corpus_flags(index)
    index.add_argument("--out", type=Path, default=None)
    index.add_argument("--checkpoint", default=None, help="ColBERT checkpoint folder or hub name")
    index.add_argument("--nbits", type=int, default=2, help="ColBERT residual compression bits")
    index.add_argument("--doc-maxlen", type=int, default=180)
    index.add_argument("--kmeans-niters", type=int, default=4)
    index.add_argument("--kmeans", default="auto", choices=list(KMEANS_BACKENDS),
                       help="where ColBERT's k-means runs: auto (torch on a GPU that faiss cannot use, else faiss), "
                            "faiss (colbert-ai's own) or torch")
    index.set_defaults(run=commands.cmd_index)

    train = verbs.add_parser("train-retriever", help="derive and fine-tune a ColBERT checkpoint")
    train.add_argument("--init", default="minilm", help="minilm (derive offline) or a checkpoint folder / hub name")
    train.add_argument("--triples", default=None,
                       help="'bundled', 'gold' (the --dataset's questions against their gold paragraphs, BM25's best "
                       "non-gold paragraphs as negatives) or a triples JSONL (query, positive, negative)")
    _add_corpus_flags(train)
    train.add_argument("--steps", type=int, default=200)
    train.add_argument("--bsize", type=int, default=8)
    train.add_argument("--lr", type=float, default=1e-5)
    train.add_argument("--out", type=Path, default=None)
    train.set_defaults(run=commands.cmd_train_retriever)

    bench = verbs.add_parser("eval-retrieval", help="recall@k and latency of a retriever on a dataset")
    bench.add_argument("--dataset", default="bundled:dev")
    bench.add_argument("--n", type=int, default=None)
    bench.add_argument("--k", type=int, default=15)
    bench.add_argument("--quiet", action="store_true")
    bench.add_argument("--queries", default="question", choices=["question", "hops"],
                       help="question: OneR's query; hops: the bundled single-hop queries, one gold paragraph each")
    add_retrieval_flags(bench)
    bench.set_defaults(run=commands.cmd_eval_retrieval)

    from hopkit.cli import ablate, analyses, calibrate, knobs, optimize, reproduce
    from hopkit.cli.run_spec import add_spec_flags

    ablate.add_parser(verbs)
    reproduce.add_parsers(verbs)
    reproduce.add_bench_parser(verbs)
    analyses.add_parsers(verbs)
    knobs.add_parser(verbs)
    calibrate.add_parser(verbs)

    scale = verbs.add_parser("bench-retrieval", help="retrieval as the corpus grows: build time, size, memory, "
                                                     "latency, throughput and recall per size and backend")
    scale.add_argument("--sizes", default="5000,50000,200000", help="passages per grown world, comma-separated")
    scale.add_argument("--backends", default="bm25", help="bm25,colbert")
    scale.add_argument("--checkpoint", default=None, help="ColBERT checkpoint for the colbert backend")
    scale.add_argument("--n", type=int, default=100, help="dev questions whose hop queries are searched")
    scale.add_argument("--k", type=int, default=15)
    scale.add_argument("--batch", type=int, default=32, help="queries per batch for the throughput figure")
    scale.add_argument("--plaid", default=None, help="ColBERT search settings: "
                                                     "ncells=N,centroid_score_threshold=X,ndocs=N")
    scale.add_argument("--plaid-grid", default=None,
                       help="ColBERT: sweep settings, e.g. "
                            "'ncells=1,2,4;centroid_score_threshold=0.3,0.5;ndocs=256,1024'"
                            " ('|' adds another grid, e.g. a near-exhaustive reference point) and report the fastest"
                            " within 1 point of the best recall@15")
    scale.add_argument("--kmeans", default="auto", choices=list(KMEANS_BACKENDS),
                       help="where ColBERT's k-means runs while indexing (see hopkit index --kmeans)")
    scale.add_argument("--out", type=Path, default=None, help="write the rows as JSON here too")
    scale.set_defaults(run=commands.cmd_bench_retrieval)

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
    report.set_defaults(run=commands.cmd_report)

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
    compare.set_defaults(run=commands.cmd_compare)

    serve = verbs.add_parser("serve", help="serve an index in the ColBERTv2 server format")
    serve.add_argument("--index", type=Path, required=True)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8893)
    serve.set_defaults(run=commands.cmd_serve)

    models = verbs.add_parser("models", help="offline model packs")
    models.add_argument("action", choices=["fetch", "list"])
    models.add_argument("names", nargs="*", default=["qwen1.5b"])
    models.add_argument("--force", action="store_true", help="fetch again even if installed")
    models.set_defaults(run=commands.cmd_models)

    demo = verbs.add_parser("demo", help="the main job on the bundled benchmark: IRCoT step by step on its first "
                                         "question, then OneR and IRCoT on its first questions, paired")
    demo.add_argument("--n", type=int, default=6, help="the first N questions both methods answer")
    demo.add_argument("--max-demos", type=int, default=4,
                      help="IRCoT's demonstrations per prompt here (its max_demos knob), so that the demo fits ten "
                           "minutes on 2 cores; the profiles pack up to 15, as hopkit eval does")
    demo.add_argument("--quiet", action="store_true", help="no progress bars")
    add_profile_flag(demo)
    add_lm_flags(demo)
    demo.set_defaults(run=commands.cmd_demo)

    for name, run, text in [("ask", commands.cmd_ask, "answer one question"),
                            ("eval", commands.cmd_eval, "evaluate a method on a dataset")]:
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

    optimize.add_parser(verbs)
    return parser


def _add_corpus_flags(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--dataset", default="bundled:dev", help="use the dataset's corpus (default bundled)")
    source.add_argument("--corpus", type=Path, default=None, help="a corpus file (.jsonl or .tsv)")


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
