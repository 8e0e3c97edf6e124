"""A study's pictures: optuna's history and importance plots (and the Pareto front of a multi-objective study), and
the cost front of its settings, metric against LM calls a question."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState


def save_plots(study: optuna.Study, folder: Path, metric_name: str, objective_names: list[str]) -> dict[str, str]:
    """Writes what the study supports; returns {plot: path or the reason it was skipped}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from optuna.visualization import matplotlib as vis

    folder.mkdir(parents=True, exist_ok=True)
    multi = len(study.directions) > 1
    target = (lambda t: t.values[0]) if multi else None
    plots = {
        "history": lambda: vis.plot_optimization_history(study, target=target, target_name=metric_name),
        "importances": lambda: vis.plot_param_importances(study, target=target, target_name=metric_name),
    }
    if multi:
        plots["pareto"] = lambda: vis.plot_pareto_front(study, target_names=objective_names)
    written = {}
    for name, draw in plots.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # optuna marks its matplotlib backend experimental
                axes = draw()
            drawn: Any = axes  # one Axes, or optuna's array of them
            figure = drawn.figure if hasattr(drawn, "figure") else drawn.flat[0].figure
            path = folder / f"{name}.png"
            figure.savefig(path, dpi=110, bbox_inches="tight")
            plt.close(figure)
            written[name] = str(path)
        except (ValueError, RuntimeError, ZeroDivisionError) as error:  # e.g. too few finished trials
            written[name] = f"skipped: {error}"
    return written


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
