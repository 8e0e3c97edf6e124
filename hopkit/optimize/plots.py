"""PNG plots of a study: optimization history, parameter importances, and the Pareto front."""

from __future__ import annotations

import warnings
from pathlib import Path

import optuna


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
            figure = axes.figure if hasattr(axes, "figure") else axes.flat[0].figure
            path = folder / f"{name}.png"
            figure.savefig(path, dpi=110, bbox_inches="tight")
            plt.close(figure)
            written[name] = str(path)
        except (ValueError, RuntimeError, ZeroDivisionError) as error:  # e.g. too few finished trials
            written[name] = f"skipped: {error}"
    return written
