"""The numbers a run's table averages, read from each program's trace by the method's own views
(hopkit/programs/views.py): programs record what happened, and each method's folder says what is counted from it."""

from __future__ import annotations

from hopkit.programs.registry import views_of


def stats_of(trace: dict | None) -> dict:
    """A trace's numbers: a log written before stats were read here keeps its own ``stats``."""
    trace = trace or {}
    if "stats" in trace:
        return trace["stats"]
    return views_of(trace).stats(trace)
