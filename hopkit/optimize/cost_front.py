"""Every finished setting of a study by its dev metric and its LM calls per question, with the Pareto front (no
other setting scores higher at no more calls) marked; drawn for single- and multi-objective studies alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState


def cost_front(study: optuna.Study) -> list[dict[str, Any]]:
    """Completed trials as {number, params, metric, calls, front}, a repeated setting once."""
    points: dict[str, dict[str, Any]] = {}
    for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        key = repr(sorted(trial.params.items()))
        if key not in points and "lm_calls_per_q" in trial.user_attrs:
            points[key] = {"number": trial.number, "params": trial.params, "metric": trial.values[0],
                           "calls": float(trial.user_attrs["lm_calls_per_q"])}
    rows = list(points.values())
    for point in rows:
        point["front"] = not any(o["metric"] >= point["metric"] and o["calls"] <= point["calls"]
                                 and (o["metric"] > point["metric"] or o["calls"] < point["calls"]) for o in rows)
    return sorted(rows, key=lambda p: (p["calls"], -p["metric"]))


def plot_cost_front(points: list[dict[str, Any]], path: Path, metric: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 4))
    others = [p for p in points if not p["front"]]
    front = [p for p in points if p["front"]]
    axes.scatter([p["calls"] for p in others], [100 * p["metric"] for p in others], color="#999999", label="settings")
    axes.plot([p["calls"] for p in front], [100 * p["metric"] for p in front], "o-", color="#c44e52",
              label="Pareto front")
    for point in points:
        axes.annotate(str(point["number"]), (point["calls"], 100 * point["metric"]), fontsize=7,
                      xytext=(3, 3), textcoords="offset points")
    axes.set_xlabel("LM calls per question (dev)")
    axes.set_ylabel(f"{metric} x 100 (dev)")
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return str(path)
