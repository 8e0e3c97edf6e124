"""What few-shot prompts cost on the offline LM: the same IRCoT questions zero-shot and few-shot, each mode in its
own process (a fresh model, DSPy's answer cache off), so the figures are the engine's own counts.

The demonstrations are the same prefix before every question, and llama.cpp's prefix KV cache keeps their state, so
few-shot should evaluate little more prompt than zero-shot does: the few-shot prompt's new part (paragraphs, chain)
is what each call pays for. ``few-shot-no-reuse`` evaluates every prompt whole, the cost without that reuse.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from hopkit.evaluation.mode_processes import measure_in_processes
from hopkit.knobs.knob import Profile

# mode -> (demonstrations on, environment of its process)
MODES: dict[str, tuple[bool, dict[str, str]]] = {
    "zero-shot": (False, {}),
    "few-shot": (True, {}),
    "few-shot-no-reuse": (True, {"HOPKIT_PREFIX_CACHE_MB": "0", "HOPKIT_REUSE_CONTEXT": "0"}),
}
TARGET = 1.5  # few-shot prompt-eval seconds at most this many times zero-shot's


@dataclass(frozen=True)
class BenchRequest:
    dataset: str
    demos_from: str
    n: int = 10
    lm: str = "local:qwen1.5b"
    profile: Profile = "paper"
    method: str = "ircot"


def run_mode(request: BenchRequest, mode: str) -> dict:
    """One mode in this process: the engine's counts over ``n`` questions."""
    import dspy

    from hopkit.data.registry import load_dataset_spec
    from hopkit.evaluation.harness import evaluate
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    from hopkit.lm.factory import LMSpec, make_lm
    from hopkit.programs.registry import ProgramParts
    from hopkit.retrieval.loading import bm25_of

    demos, _ = MODES[mode]
    lm = make_lm(LMSpec(model=request.lm, cache=False))
    dspy.configure(lm=lm)
    dataset = load_dataset_spec(request.dataset)
    train = load_dataset_spec(request.demos_from) if demos else None
    retriever = bm25_of(dataset.own_corpus(), dataset.corpus_name)
    program = ProgramParts(request.method, retriever, train=train, profile=request.profile).program()
    demo_count = len(getattr(getattr(program, "read_cot", None), "demos", []) or [])
    start = time.perf_counter()
    log = RunLog(Path(tempfile.mkdtemp()) / "run.jsonl", {"mode": mode})
    evaluate(program, dataset.examples[: request.n], [get_metric("f1")], log, progress=False)
    seconds = time.perf_counter() - start
    questions = max(len(log.rows), 1)
    engine = lm.engine
    return {"mode": mode, "questions": len(log.rows), "demonstrations": demo_count,
            "prompt_tokens_sent": sum(row["cost"]["prompt_tokens"] for row in log.rows) / questions,
            "prompt_tokens_evaluated": engine.prompt_eval_tokens / questions,
            "prompt_eval_seconds": engine.prompt_eval_seconds / questions,
            "seconds": seconds / questions, "f1": sum(r["metrics"]["f1"] for r in log.rows) / questions,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def bench(request: BenchRequest, modes: list[str], out: Path | None, say=print) -> dict[str, dict]:
    """Each mode in a child process; finished modes are kept in ``out`` and not run again."""
    done = measure_in_processes("hopkit.evaluation.demo_prefix_bench", request.__dict__, modes, out,
                                lambda mode: f"{request.n} {request.method} questions", say,
                                env=lambda mode: MODES[mode][1])
    return {mode: done[mode] for mode in modes}


def format_bench(results: dict[str, dict]) -> str:
    lines = ["| mode | questions | demonstrations | prompt tokens sent /q | prompt tokens evaluated /q | "
             "prompt-eval s /q | s /q | peak MB | F1 |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results.values():
        lines.append(f"| {r['mode']} | {r['questions']} | {r['demonstrations']} | {r['prompt_tokens_sent']:,.0f} | "
                     f"{r['prompt_tokens_evaluated']:,.0f} | {r['prompt_eval_seconds']:.1f} | {r['seconds']:.1f} | "
                     f"{r['peak_mb']:,.0f} | {100 * r['f1']:.1f} |")
    if "few-shot" in results and "zero-shot" in results and results["zero-shot"]["prompt_eval_seconds"]:
        ratio = results["few-shot"]["prompt_eval_seconds"] / results["zero-shot"]["prompt_eval_seconds"]
        verdict = "met" if ratio <= TARGET else "not met"
        lines.append(f"few-shot / zero-shot prompt-eval seconds: {ratio:.2f} (target <= {TARGET}: {verdict})")
    return "\n".join(lines)


if __name__ == "__main__":  # a child: one mode
    print(json.dumps(run_mode(BenchRequest(**json.loads(sys.argv[1])), sys.argv[2])))
