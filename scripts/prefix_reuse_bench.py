"""Prefix reuse on the offline LM: the same IRCoT questions with llama.cpp's prefix KV cache on and off.

Each mode runs in its own process (fresh model, DSPy's answer cache off) and reports the prompt tokens sent,
the prompt tokens llama.cpp actually evaluated (a reused prefix is not) and the seconds it spent on them,
seconds per question and peak memory. Modes: "on" (hopkit's default), "off" (no reuse at all: every prompt
evaluated whole) and "previous-call" (only llama.cpp's own reuse of the previous call's prefix).

    python scripts/prefix_reuse_bench.py --dataset ircot:../shared/data/hotpotqa/dev100.jsonl --n 10 \\
        --demos-from ircot-demos:../shared/data/ircot-demos/hotpotqa.txt --out docs/runs/scale/prefix-reuse.json
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

    from hopkit.paths import default_index_path
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
                      "tokens_evaluated": lm.engine.evaluated_tokens,
                      "prompt_tokens_evaluated": lm.engine.prompt_eval_tokens,
                      "prompt_eval_seconds": lm.engine.prompt_eval_seconds,
                      "seconds_per_question": seconds / max(len(log.rows), 1),
                      "f1": sum(r["metrics"]["f1"] for r in log.rows) / max(len(log.rows), 1),
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


MODES = {  # environment of each mode's process
    "on": {},  # hopkit's default: the prefix KV cache, and llama.cpp's reuse of the previous call's prefix
    "previous-call": {"HOPKIT_PREFIX_CACHE_MB": "0"},  # only llama.cpp's own reuse of the previous call
    "off": {"HOPKIT_PREFIX_CACHE_MB": "0", "HOPKIT_REUSE_CONTEXT": "0"},  # every prompt evaluated whole
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--demos-from", default=None)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--lm", default="local:qwen1.5b")
    parser.add_argument("--modes", default="on,off", help=f"comma list of {', '.join(MODES)}")
    parser.add_argument("--out", default=None, help="JSON file of finished modes; a rerun skips them")
    parser.add_argument("--child", choices=tuple(MODES), default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        parser.error(f"unknown mode(s) {unknown}; choose from {list(MODES)}")
    out_path = Path(args.out) if args.out else None
    done = json.loads(out_path.read_text()) if out_path and out_path.is_file() else {}
    for mode in modes:
        if mode in done:
            print(f"{mode}: already measured in {out_path}", flush=True)
            continue
        proc = subprocess.run([sys.executable, __file__, *sys.argv[1:], "--child", mode],
                              env={**os.environ, **MODES[mode]}, capture_output=True, text=True)
        if proc.returncode:
            sys.exit(f"mode {mode} failed:\n{proc.stderr.strip()[-2000:]}")
        out = proc.stdout
        done[mode] = json.loads(out.strip().splitlines()[-1])
        print(done[mode], flush=True)
        if out_path:
            out_path.parent.mkdir(parents=True, exist_ok=True)
            out_path.write_text(json.dumps(done, indent=1))
    results = [done[m] for m in modes]
    print("| prefix reuse | questions | prompt tokens sent | prompt tokens evaluated | all tokens evaluated | "
          "prompt-eval s/question | s/question | peak MB | F1 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['mode']} | {r['questions']} | {r['prompt_tokens_sent']} | {r['prompt_tokens_evaluated']} | "
              f"{r['tokens_evaluated']} | {r['prompt_eval_seconds'] / r['questions']:.1f} | "
              f"{r['seconds_per_question']:.1f} | {r['peak_mb']:.0f} | {100 * r['f1']:.1f} |")
    if "on" in done and "off" in done and done["off"]["prompt_eval_seconds"]:
        cut = 1 - done["on"]["prompt_eval_seconds"] / done["off"]["prompt_eval_seconds"]
        print(f"prompt-evaluation time with reuse on: {100 * cut:.1f}% less than off (target: at least 40%)")


if __name__ == "__main__":
    main()
