"""The retrieval verbs: ``hopkit index``, ``train-retriever``, ``eval-retrieval``, ``bench-retrieval`` and
``serve`` (docs/retrieval.md)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from hopkit.cli.components import add_retrieval_flags, load_dataset, load_retriever
from hopkit.errors import InputError
from hopkit.paths import default_index_path, existing_figures
from hopkit.retrieval.colbert.torch_kmeans import KMEANS_BACKENDS


def add_parsers(verbs: argparse._SubParsersAction) -> None:
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
    index.set_defaults(run=cmd_index)

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
    train.set_defaults(run=cmd_train_retriever)

    bench = verbs.add_parser("eval-retrieval", help="recall@k and latency of a retriever on a dataset")
    bench.add_argument("--dataset", default="bundled:dev")
    bench.add_argument("--n", type=int, default=None)
    bench.add_argument("--k", type=int, default=15)
    bench.add_argument("--quiet", action="store_true")
    bench.add_argument("--queries", default="question", choices=["question", "hops"],
                       help="question: OneR's query; hops: the bundled single-hop queries, one gold paragraph each")
    add_retrieval_flags(bench)
    bench.set_defaults(run=cmd_eval_retrieval)

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
    scale.set_defaults(run=cmd_bench_retrieval)

    serve = verbs.add_parser("serve", help="serve an index in the ColBERTv2 server format")
    serve.add_argument("--index", type=Path, required=True)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8893)
    serve.set_defaults(run=cmd_serve)


def _add_corpus_flags(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--dataset", default="bundled:dev", help="use the dataset's corpus (default bundled)")
    source.add_argument("--corpus", type=Path, default=None, help="a corpus file (.jsonl or .tsv)")


def _corpus(args: argparse.Namespace):
    """The corpus the flags name and the name of its default index (a file's carries its fingerprint, as a
    ``qa:`` corpus's does, so that two files of one name do not share an index)."""
    from hopkit.data.corpus import Corpus
    from hopkit.data.examples import local_corpus_name

    if args.corpus:
        corpus = Corpus.from_file(args.corpus)
        return corpus, local_corpus_name(args.corpus.stem, corpus)
    dataset = load_dataset(args.dataset)
    return dataset.own_corpus(), dataset.corpus_name


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

    existing_figures(args.out)  # a file that is not such figures is refused before the benchmark, not after it
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


def cmd_serve(args: argparse.Namespace) -> None:
    from hopkit.retrieval.loading import load_index
    from hopkit.retrieval.server import make_server

    server = make_server(load_index(args.index), args.host, args.port)
    print(f"serving {args.index} on http://{args.host}:{server.server_address[1]}/api/search?query=...&k=...")
    server.serve_forever()
