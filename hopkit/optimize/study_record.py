"""What a finished study writes beside its settings: ``summary.json``, with the costs counted from the study's own
files (every answered question, whichever run answered it, killed runs included), so a study resumed across
sessions adds up. ``hopkit report STUDY`` reads it back (hopkit/optimize/summary.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hopkit.optimize.request import OptimizeRequest, OptimizeResult


def study_costs(folder: Path) -> tuple[int, int, float]:
    """LM calls and cache hits over every trial's questions, and the answering seconds over those and
    the test runs, whichever run answered them (killed runs included)."""
    rows = study_rows(folder / "settings")
    answering = sum(r["cost"].get("seconds", 0.0) for r in rows + study_rows(folder / "test", "*.jsonl"))
    return (sum(r["cost"]["lm_calls"] for r in rows), sum(r["cost"].get("cache_hits", 0) for r in rows), answering)


def study_rows(folder: Path, pattern: str = "setting-*.jsonl") -> list[dict[str, Any]]:
    """Every answered question in a study's settings (or test) folder, whichever run answered it."""
    rows = []
    for path in sorted(folder.glob(pattern)):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:  # a line torn by a killed worker; its question was redone
                continue
    return rows


def write_summary(request: OptimizeRequest, result: OptimizeResult, best: int, default: int | None) -> None:
    """``summary.json`` in the study folder: the figures a results table needs, with the wall time of
    every invocation that finished (a study resumed across sessions adds up) and the answering time,
    the per-question seconds kept in the study's files, which also counts runs killed before the end."""
    splits, place, pruning = request.splits, request.place, request.pruning
    sessions = place.folder / "invocations.jsonl"
    with sessions.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"seconds": round(result.seconds, 1), "trials_after": result.trials}) + "\n")
    result.total_seconds = sum(json.loads(line)["seconds"] for line in sessions.read_text().splitlines() if line)
    result.summary_path = place.folder / "summary.json"
    result.summary_path.write_text(json.dumps({
        "method": request.method, "dataset": splits.dev_name, "dev_n": len(splits.dev), "test_n": len(splits.test),
        "metric": request.metric.name, "demos": request.demos.teleprompter, "objectives": list(request.objectives),
        "fixed": request.fixed, "study": place.name, "trials": result.trials,
        "settings": result.settings,
        "default_trial": default, "best_trial": best, "best_knobs": result.knobs,
        "dev": {"default": result.default_value, "best": result.best_value},
        "test": {"default": result.test_default_scores.get(request.metric.name),
                 "best": result.test_scores.get(request.metric.name)},
        "lm_calls_per_question": result.calls_per_question, "cache_hit_rate": result.cache_hit_rate,
        "seconds_this_run": result.seconds, "seconds_all_runs": result.total_seconds,
        "seconds_answering": round(result.answering_seconds, 1),
        **({"pareto": result.pareto} if result.pareto else {}),  # multi-objective; one metric has the cost front
        "questions_answered": questions_answered(place.folder), "pruner": pruning.pruner,
        "cost_front": [p for p in result.cost_front if p["front"]], "logs": result.logs,
        "pruning": result.pruning.to_dict() if result.pruning else None, "choice": result.choice,
        **({"call_cap": {"max_calls_per_question": pruning.max_calls_per_question, "stopped": result.capped}}
           if pruning.max_calls_per_question is not None else {}),
    }, indent=2, default=str))


def questions_answered(folder: Path) -> dict[str, float]:
    """Questions the study's trials answered (each setting's once) and the LM hours they took, as computed."""
    from hopkit.lm.usage import computed_cost

    rows = study_rows(folder / "settings")  # one row per question answered under a setting
    return {"questions": len(rows),
            "lm_hours": round(sum(computed_cost(r.get("cost") or {})["seconds"] for r in rows) / 3600, 3)}
