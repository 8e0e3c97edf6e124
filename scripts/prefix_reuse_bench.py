"""Prefix reuse on the offline LM: the same IRCoT questions with llama.cpp's prefix KV cache on and off.

Each mode runs in its own process (fresh model, DSPy's answer cache off) and reports the prompt tokens sent,
the tokens llama.cpp actually evaluated (a reused prefix is not), seconds per question and peak memory.

    python scripts/prefix_reuse_bench.py --dataset ircot:../shared/data/hotpotqa/dev100.jsonl --n 10 \\
        --demos-from ircot-demos:../shared/data/ircot-demos/hotpotqa.txt
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def child(args: argparse.Namespace) -> None:
    import dspy

    from hopkit.cli.components import default_index_path
    from hopkit.data.registry import load_dataset_spec
    from hopkit.evaluation.harness import evaluate
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    from hopkit.lm.factory import LMSpec, make_lm
    from hopkit.programs.registry import build_program
    from hopkit.retrieval.loading import load_index

    lm = make_lm(LMSpec(model=args.lm, cache=False))
    dspy.configure(lm=lm)
    dataset = load_dataset_spec(args.dataset)
    train = load_dataset_spec(args.demos_from) if args.demos_from else None
    retriever = load_index(default_index_path(dataset.corpus_name, "bm25"))
    program = build_program("ircot", retriever=retriever, train=train)
    start = time.perf_counter()
    log = RunLog(Path(tempfile.mkdtemp()) / "run.jsonl", {"mode": args.child})
    evaluate(program, dataset.examples[: args.n], [get_metric("f1")], log, progress=False)
    seconds = time.perf_counter() - start
    sent = sum(row["cost"]["prompt_tokens"] for row in log.rows)
    print(json.dumps({"mode": args.child, "questions": len(log.rows), "prompt_tokens_sent": sent,
                      "tokens_evaluated": lm.engine.evaluated_tokens if hasattr(lm, "engine") else None,
                      "seconds_per_question": seconds / max(len(log.rows), 1),
                      "f1": sum(r["metrics"]["f1"] for r in log.rows) / max(len(log.rows), 1),
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--demos-from", default=None)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--lm", default="local:qwen1.5b")
    parser.add_argument("--child", choices=("on", "off"), default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    results = []
    for mode in ("on", "off"):
        env = {**os.environ, **({"HOPKIT_PREFIX_CACHE_MB": "0"} if mode == "off" else {})}
        out = subprocess.run([sys.executable, __file__, *sys.argv[1:], "--child", mode], env=env, check=True,
                             capture_output=True, text=True).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
        print(results[-1], flush=True)
    print("| prefix cache | questions | prompt tokens sent | tokens evaluated | s/question | peak MB | F1 |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['mode']} | {r['questions']} | {r['prompt_tokens_sent']} | {r['tokens_evaluated']} | "
              f"{r['seconds_per_question']:.1f} | {r['peak_mb']:.0f} | {100 * r['f1']:.1f} |")


if __name__ == "__main__":
    main()
