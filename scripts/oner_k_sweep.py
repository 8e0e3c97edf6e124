"""OneR's K tuned on a dev set, as the IRCoT paper tunes it (K in 5, 7, ..., 15), at the cost of
little more than the largest K: each question is answered with every K in ascending order, so the
LM re-reads only the paragraphs each larger K adds (the prompts share their first K paragraphs).

Each K's rows go to its own run log, the same file and settings `hopkit eval --method oner --set
k=K --out ...` writes, so a log can be resumed, reported or compared by either. Kill it and run it
again: finished (question, K) pairs are skipped.

    python scripts/oner_k_sweep.py --dataset ircot:../shared/data/hotpotqa/dev100.jsonl --n 100 \
        --out-dir docs/runs/dev100 [--ks 5,7,9,11,13,15] [--retriever bm25] [--lm local:qwen1.5b] [--profile paper]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tqdm import tqdm

from hopkit.cli.components import add_lm_flags, add_retrieval_flags, configure_lm, load_dataset, load_retriever
from hopkit.cli.commands import eval_meta
from hopkit.paths import slug
from hopkit.evaluation.harness import format_report, run_one, summarize
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.run_log import RunLog
from hopkit.knobs import parse_knobs
from hopkit.programs.registry import build_program

METRICS = ("em", "f1", "cover_em", "recall@15")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--n", type=int, default=None)
    parser.add_argument("--ks", default="5,7,9,11,13,15")
    parser.add_argument("--out-dir", type=Path, required=True)
    parser.add_argument("--profile", default="hopkit", choices=["hopkit", "paper"])
    parser.add_argument("--set", action="append", default=[], help="knob=value for every K (e.g. yes_no_check=false)")
    add_lm_flags(parser)
    add_retrieval_flags(parser)
    args = parser.parse_args()
    ks = sorted(int(k) for k in args.ks.split(","))
    dataset = load_dataset(args.dataset)
    examples = dataset.examples[: args.n] if args.n else dataset.examples
    retriever = load_retriever(args, dataset)
    configure_lm(args)
    metrics = [get_metric(name) for name in METRICS]
    knobs = parse_knobs(args.set)
    programs = {k: build_program("oner", retriever=retriever, profile=args.profile, **{**knobs, "k": k}) for k in ks}
    args.method = "oner"
    logs = {k: RunLog(args.out_dir / f"oner-k{k}-{slug(args.retriever)}__{slug(args.lm)}.jsonl",
                      eval_meta(args, dataset.name, {**knobs, "k": k}))
            for k in ks}
    done = {k: log.done_qids() for k, log in logs.items()}
    for example in tqdm(examples, desc="oner K sweep", unit="q", dynamic_ncols=True):
        for k in ks:
            if example.qid not in done[k]:
                logs[k].append(run_one(programs[k], example, metrics))
    wanted = {ex.qid for ex in examples}
    for k in ks:
        rows = [row for row in logs[k].rows if row["qid"] in wanted]
        print(format_report(summarize(rows, metrics, logs[k].path), f"oner K={k} {dataset.name}"))


if __name__ == "__main__":
    main()
