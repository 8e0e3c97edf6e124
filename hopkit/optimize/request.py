"""What one optimization run is asked to do, grouped by concern (the splits, the demonstrations, the search, its
pruning and its place), and what it gives back; ``hopkit.optimize.runner.optimize`` carries it out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dspy

from hopkit.data.examples import Dataset
from hopkit.evaluation.metrics import Metric
from hopkit.knobs.knob import Profile
from hopkit.optimize.demos import check_demo_threshold
from hopkit.optimize.pruning import PruningReport
from hopkit.paths import check_study_folder
from hopkit.tasks import Task


@dataclass(frozen=True)
class Splits:
    """The questions: train for demonstrations only, dev the study tunes on, test scored once at the end."""

    train: Dataset | None
    dev: Sequence[dspy.Example]
    dev_name: str
    test: Sequence[dspy.Example] = ()
    train_n: int = 20  # training questions the teleprompter may use


@dataclass(frozen=True)
class DemoSettings:
    teleprompter: str = "bootstrap"  # bootstrap | mipro | labeled | none
    threshold: float = 1.0  # metric score a training trace needs to become a demonstration


@dataclass(frozen=True)
class PruningSettings:
    """How a setting is stopped early, and whether to check afterwards what that saved and changed."""

    pruner: str = "median"  # median | halving | none (hopkit.optimize.study.make_pruner)
    slices: int = 3
    startup: int = 3  # finished settings before the median pruner may stop a trial
    max_calls_per_question: float | None = None  # stop a setting that costs more (the cost cap, objective.py)
    unpruned_check: bool = False  # after the study, finish every pruned trial on all of dev and compare


@dataclass(frozen=True)
class StudyPlace:
    """Where the study lives: its folder (logs, plots, the saved program) and its optuna storage."""

    folder: Path
    storage: str
    name: str
    heartbeat_s: int = 60
    grace_s: int = 180


# what marks a folder as an optimize study's: its settings' run logs, its default SQLite storage, its sessions
STUDY_MARKERS = ("settings", "study.db", "invocations.jsonl")


def check_study_place(folder: Path) -> None:
    """Refuse a folder of the user's own before anything loads: the study writes its summary and plots there."""
    check_study_folder(folder, STUDY_MARKERS, "an optimize study's folder")


@dataclass(frozen=True)
class OptimizeRequest:
    """One study, grouped by concern: the splits, the demonstrations, the search, its pruning and its place."""

    method: str
    metric: Metric
    splits: Splits
    place: StudyPlace
    trials: int
    demos: DemoSettings = DemoSettings()
    pruning: PruningSettings = PruningSettings()
    profile: Profile = "hopkit"  # knobs not searched, and trial 0's values of those searched (as every verb's default)
    objectives: Sequence[str] = ("metric",)
    fixed: dict[str, Any] = field(default_factory=dict)
    params: Sequence[str] | None = None
    # a paper's grid (hopkit/reproduce/grids.py): GridSampler over exactly these values, every point tried once, and
    # no separate paper's trial (the grid holds the settings the paper chose among)
    grid: dict[str, list[Any]] | None = None
    choose: str = "best"  # best: the top dev score | guarded: the paper's trial unless the lead survives selection
    seed: int = 0
    threads: int = 1
    progress: bool = True
    # the run spec of the study's runs (the LM, retriever, profile, fixed knobs): each setting's log records it with
    # its own knobs, as eval records a run (None: the knobs alone)
    run_spec: Any = None
    task: Task | None = None  # the task every trial's program answers, as eval's does (None: the method's own answer)
    retriever_choice: str | None = None  # what ``--retriever auto`` measured to choose the backend, as eval records it


def setting_meta_of(request: OptimizeRequest, dev_name: str) -> dict[str, Any]:
    """The objective's setting metadata from the request's run spec, where it has one (also for an objective that
    answers the settings before the study reads them: hopkit/reproduce/shared_work.py)."""
    if request.run_spec is None:
        return {}
    from dataclasses import replace

    from hopkit.spec import MECHANICS, run_meta

    spec = request.run_spec
    chosen = {"retriever_choice": request.retriever_choice} if request.retriever_choice else {}

    def setting_meta(knobs: dict[str, Any]) -> dict:
        return {**run_meta(replace(spec, knobs={**spec.knobs, **knobs}), dev_name), **chosen}

    return {"setting_meta": setting_meta, "mechanics": MECHANICS}


@dataclass
class OptimizeResult:
    knobs: dict[str, Any]
    best_value: float
    default_value: float | None
    pareto: list[dict[str, Any]]
    test_scores: dict[str, float]
    cache_hit_rate: float
    seconds: float
    program_dir: Path
    plots: dict[str, str]
    trials: int
    test_default_scores: dict[str, float] = field(default_factory=dict)
    calls_per_question: dict[str, float] = field(default_factory=dict)  # dev/test x default/best
    total_seconds: float = 0.0  # wall time of every invocation that worked this study folder and finished
    answering_seconds: float = 0.0  # per-question seconds over every trial and test run, killed runs included
    summary_path: Path | None = None
    settings: int = 0  # distinct finished settings; ``trials`` also counts repeats and failed trials
    pruning: PruningReport | None = None  # with unpruned_check: what pruning saved, and whether it chose the same
    cost_front: list[dict[str, Any]] = field(default_factory=list)  # every setting by dev metric and LM calls
    logs: dict[str, str] = field(default_factory=dict)  # dev/test x best/default: the run logs behind the figures
    choice: dict[str, Any] | None = None  # with choose = guarded: the corrected dev interval and what it kept
    capped: list[dict[str, Any]] = field(default_factory=list)  # trials stopped over --max-calls-per-question
    metric: str = ""  # the metric the study tuned, by name


def grid_points(grid: dict[str, list[Any]]) -> int:
    points = 1
    for values in grid.values():
        points *= len(values)
    return points


def check_budget(trials: int, demos: str, demo_threshold: float) -> None:
    """Refuse a run that could not do its work, before anything is loaded or written."""
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    if demos != "none":
        check_demo_threshold(demo_threshold)
