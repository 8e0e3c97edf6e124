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
    lines += paired_lines(summary)
    if summary.get("questions_answered"):
        answered = summary["questions_answered"]
        who = "the trials and the unpruned check" if summary.get("pruning") else "the trials"
        lines.append(f"questions answered by {who}: {answered['questions']} ({answered['lm_hours']:.2f} LM hours "
                     f"as computed; pruner {summary.get('pruner', 'median')})")
    if summary.get("pruning"):
        p = summary["pruning"]
        lines.append(f"without pruning, the same trials: {p['questions_unpruned']} questions, {p['lm_hours_unpruned']:.2f} "
                     f"LM hours; pruning answered {100 * p['share_of_questions']:.0f}% of them and chose "
                     + ("the same setting" if p["same_setting"] else f"{p['chosen_pruned']} over {p['chosen_unpruned']}"))
    for point in summary.get("cost_front") or []:
        lines.append(f"  cost front: trial {point['number']} {summary['metric']} {100 * point['metric']:.1f} at "
                     f"{point['calls']:.2f} LM calls/q {point['params']}")
    return "\n".join(lines)


def paired_lines(summary: dict[str, Any]) -> list[str]:
    """The chosen setting against trial 0 on dev and on test, paired over the same questions."""
    from hopkit.evaluation.paired import compare_runs, read_rows

    logs, lines = summary.get("logs") or {}, []
    for split in ("dev", "test"):
        default, best = logs.get(f"{split}_default"), logs.get(f"{split}_best")
        if not default or not best or not Path(default).is_file() or not Path(best).is_file():
            continue
        rows_default, rows_best = read_rows(Path(default)), read_rows(Path(best))
        result = compare_runs(rows_default, rows_best, [summary["metric"]])
        d = result.differences[0]
        mark = " *" if d.significant else ""
        lines.append(f"{split}: chosen (trial {summary['best_trial']}) - trial 0, paired over {result.n} "
                     f"questions: {100 * d.mean_b:.1f} - {100 * d.mean_a:.1f} = {100 * d.diff:+.1f}{mark} "
                     f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}]")
    return lines
