"""What a paper's tuning grid costs on the offline LM, with and without its settings sharing work (``hopkit
bench-grid``): the same tune questions answered setting by setting, as the trials alone would, and shared (OneR's
nested K, IRCoT's one chain for both readers; hopkit/reproduce/shared_work.py). Each mode runs in its own process
(a fresh model, DSPy's answer cache off), so the figures are the engine's own counts. Besides wall seconds it records
the process's CPU seconds, which other work on the same cores barely changes, so a shared machine still gives a fair
ratio (docs/results.md, "Tuning grids"). With ``out``, the setting logs are kept beside it: a stopped
setting-by-setting run resumes, its seconds summed from each question's own; the shared mode, whose rows carry
their chain's cost twice, is always timed in one whole run.
"""

from __future__ import annotations

import itertools
import json
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from hopkit.evaluation.mode_processes import measure_in_processes

MODES = ("setting-by-setting", "shared")
TARGET = 0.5  # the shared grid's seconds at most this share of setting by setting's


@dataclass(frozen=True)
class GridBenchRequest:
    method: str
    dataset: str
    demos_from: str
    n: int = 5
    lm: str = "local:qwen1.5b"
    logs: str | None = None  # a folder that keeps each mode's setting logs, so a stopped run resumes (None: temporary)


def run_mode(request: GridBenchRequest, mode: str) -> dict:
    """One mode in this process: seconds and prompt tokens evaluated, and each row's answer by setting."""
    import dspy

    from hopkit.data.registry import load_dataset_spec
    from hopkit.evaluation.harness import evaluate
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog, row_seconds
    from hopkit.lm.factory import LMSpec, make_lm
    from hopkit.optimize.objective import setting_log_name
    from hopkit.programs.demo_source import load_demonstrations
    from hopkit.programs.registry import ProgramParts
    from hopkit.reproduce.grids import paper_grid
    from hopkit.reproduce.shared_work import answer_shared
    from hopkit.retrieval.loading import bm25_of

    lm = make_lm(LMSpec(model=request.lm, cache=False))
    dspy.configure(lm=lm)
    dataset = load_dataset_spec(request.dataset)
    retriever = bm25_of(dataset.own_corpus(), dataset.corpus_name)
    train, _ = load_demonstrations(request.demos_from, dataset.name, request.method, "paper")
    grid = paper_grid(request.method)
    settings = [dict(zip(grid, values)) for values in itertools.product(*grid.values())]
    questions = dataset.examples[: request.n]
    metric = get_metric("f1")
    folder = Path(request.logs) / mode if request.logs else Path(tempfile.mkdtemp())
    if mode == "shared":  # its rows each carry their chain's cost, so only one whole run times it: never resumed
        shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)

    def log_for(knobs: dict) -> RunLog:
        return RunLog(folder / setting_log_name(knobs), {"knobs": knobs})

    done_before = [row for knobs in settings for row in log_for(knobs).rows]
    start, cpu_start = time.perf_counter(), time.process_time()
    if mode == "shared":
        answer_shared(request.method, grid, train, questions, retriever, metric, log_for, "paper", progress=False,
                      say=lambda text: None)
    else:
        parts = ProgramParts(request.method, retriever, None, train, "paper")
        for knobs in settings:
            program = parts.program(**knobs)
            evaluate(program, questions, [metric], log_for(knobs), progress=False)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    rows = {json.dumps(knobs, sort_keys=True): log_for(knobs).rows for knobs in settings}
    answers = {key: {row["qid"]: row["prediction"]["answer"] for row in found} for key, found in rows.items()}
    resumed = bool(done_before)  # this process's CPU seconds and engine counts then cover only what it answered
    if mode != "shared":  # each row's seconds are its question's own wall time, whichever run answered it
        seconds = sum(row_seconds(row) for found in rows.values() for row in found)
    return {"mode": mode, "method": request.method, "questions": len(questions), "settings": len(settings),
            "seconds_per_question": seconds / max(len(questions), 1), "seconds": seconds,
            "cpu_seconds_per_question": None if resumed else cpu_seconds / max(len(questions), 1),
            "cpu_seconds": None if resumed else cpu_seconds,
            "prompt_tokens_evaluated": None if resumed else lm.engine.prompt_eval_tokens,
            "prompt_eval_seconds": None if resumed else lm.engine.prompt_eval_seconds, "resumed": resumed,
            "answers": answers}


def bench(request: GridBenchRequest, out: Path | None, say=print) -> dict[str, dict]:
    """Each mode in a child process; finished modes are kept in ``out`` and not run again."""
    if out is not None and request.logs is None:  # the setting logs beside the figures, so a stopped mode resumes
        request = replace(request, logs=str(out.with_suffix("")))
    return measure_in_processes("hopkit.reproduce.grid_bench", asdict(request), MODES, out,
                                lambda mode: f"the {request.method} grid on {request.n} questions", say)


def format_bench(results: dict[str, dict]) -> str:
    lines = ["| mode | questions | settings | s / question (whole grid) | CPU s / question | prompt tokens evaluated "
             "| prompt-eval s |", "|---|---|---|---|---|---|---|"]
    for mode in MODES:
        if mode in results:
            r = results[mode]
            tokens, eval_s = r.get("prompt_tokens_evaluated"), r.get("prompt_eval_seconds")
            lines.append(f"| {mode} | {r['questions']} | {r['settings']} | {r['seconds_per_question']:.1f} | "
                         f"{_cpu(r)} | {'-' if tokens is None else f'{tokens:,}'} | "
                         f"{'-' if eval_s is None else f'{eval_s:.1f}'} |")
    if all(mode in results for mode in MODES):
        before, after = results["setting-by-setting"], results["shared"]
        ratio = after["seconds"] / before["seconds"] if before["seconds"] else float("nan")
        same = sum(after["answers"].get(s, {}).get(q) == a for s, rows in before["answers"].items()
                   for q, a in rows.items())
        total = sum(len(rows) for rows in before["answers"].values())
        lines.append(f"shared / setting by setting, seconds: {ratio:.2f} (target <= {TARGET}: "
                     f"{'met' if ratio <= TARGET else 'not met'}); the same answer in {same} of {total} rows")
        if before.get("cpu_seconds") and after.get("cpu_seconds"):
            cpu_ratio = after["cpu_seconds"] / before["cpu_seconds"]
            lines.append(f"shared / setting by setting, CPU seconds: {cpu_ratio:.2f}")
    return "\n".join(lines)


def _cpu(result: dict) -> str:
    """A dash where there is no whole-run CPU figure: a result from before it was recorded, or a resumed mode."""
    cpu = result.get("cpu_seconds_per_question")
    return "-" if cpu is None else f"{cpu:.1f}"


if __name__ == "__main__":  # a child: one mode
    print(json.dumps(run_mode(GridBenchRequest(**json.loads(sys.argv[1])), sys.argv[2])))
