"""A study folder's ``summary.json`` as rows of a results table (``hopkit report STUDY_DIR``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HEADER = ("| study | demos | settings / trials | setting | dev | test | LM calls/q dev | LM calls/q test | knobs |\n"
          "|---|---|---|---|---|---|---|---|---|")


def read_summary(folder: Path) -> dict[str, Any]:
    return json.loads((Path(folder) / "summary.json").read_text(encoding="utf-8"))


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def _calls(summary: dict[str, Any], split: str, which: str) -> str:
    value = summary["lm_calls_per_question"].get(f"{split}_{which}")
    return "n/a" if value is None else f"{value:.2f}"


def _trials(summary: dict[str, Any]) -> str:
    """Distinct settings tried over all trials (repeats and failed trials included); older summaries
    recorded trials only."""
    settings = summary.get("settings")
    return f"{summary['trials']}" if settings is None else f"{settings} / {summary['trials']}"


def summary_rows(summary: dict[str, Any]) -> str:
    """Two rows, the papers' setting and the best, then the study's cache hit rate, wall time and front."""
    lines = [HEADER]
    for which, label in (("default", f"papers' (trial {summary['default_trial']})"),
                         ("best", f"best (trial {summary['best_trial']})")):
        knobs = summary["best_knobs"] if which == "best" else "-"
        lines.append(f"| {summary['study']} | {summary['demos']} | {_trials(summary)} | {label} | "
                     f"{_score(summary['dev'][which])} | {_score(summary['test'][which])} | "
                     f"{_calls(summary, 'dev', which)} | {_calls(summary, 'test', which)} | {knobs} |")
    lines.append(f"{summary['metric']} x 100 on {summary['dev_n']} dev / {summary['test_n']} test questions; "
                 f"LM cache hit rate over the trials {100 * summary['cache_hit_rate']:.1f}%; wall time "
                 f"{summary['seconds_all_runs'] / 3600:.2f} h over the runs that finished; answering time "
                 f"{summary.get('seconds_answering', 0.0) / 3600:.2f} h (every question of every trial and test run, "
                 "killed runs included)")
    for point in summary.get("pareto") or []:
        lines.append(f"  Pareto trial {point['number']}: {point['values']} {point['params']}")
    return "\n".join(lines)
