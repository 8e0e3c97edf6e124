"""Optuna studies shared through any storage URL: a SQLite file by default, a database server for
several machines. Workers heartbeat; a trial whose worker died is failed and retried with the same
knobs, and its finished questions are reused from the setting's JSONL."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import optuna
from optuna.storages import RDBStorage, RetryHeartbeatStaleTrialCallback
from optuna.study import MaxTrialsCallback
from optuna.trial import TrialState

FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)


def sqlite_url(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path.resolve()}"


def open_study(name: str, storage_url: str, directions: Sequence[str], seed: int = 0,
               heartbeat_s: int = 60, grace_s: int = 180, prune_startup: int = 3) -> optuna.Study:
    """The pruner is not stored with the study, so ``prune_startup`` may differ between runs of one study."""
    with warnings.catch_warnings():  # heartbeats are marked experimental in optuna 5
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        storage = RDBStorage(storage_url, heartbeat_interval=heartbeat_s, grace_period=grace_s,
                             heartbeat_stale_trial_callback=RetryHeartbeatStaleTrialCallback(max_retry=3),
                             engine_kwargs={"connect_args": {"timeout": 60}} if storage_url.startswith("sqlite") else None)
    return optuna.create_study(study_name=name, storage=storage, load_if_exists=True, directions=list(directions),
                               sampler=optuna.samplers.TPESampler(seed=seed, multivariate=True),
                               pruner=optuna.pruners.MedianPruner(n_startup_trials=prune_startup, n_warmup_steps=0))


def enqueue_paper_defaults(study: optuna.Study, defaults: dict[str, Any]) -> None:
    """The papers' settings run first: trial 0 of a new study, and again next if that trial raised
    (a trial that failed by error is not retried by optuna, and the study needs its baseline)."""
    alive = [t for t in study.get_trials(deepcopy=False) if t.state != TrialState.FAIL]
    if not any(t.user_attrs.get("paper_defaults") for t in alive):
        study.enqueue_trial(defaults, user_attrs={"paper_defaults": True})


def finished_trials(study: optuna.Study) -> int:
    return len(study.get_trials(deepcopy=False, states=FINISHED))


def run_trials(study: optuna.Study, objective: Any, n_trials: int, show_progress: bool = False) -> None:
    """Work the study until it holds ``n_trials`` finished trials, counting every worker's."""
    missing = n_trials - finished_trials(study)
    if missing <= 0:
        return
    study.optimize(objective, n_trials=missing, callbacks=[MaxTrialsCallback(n_trials, states=FINISHED)],
                   catch=(), show_progress_bar=show_progress, gc_after_trial=False)


def paper_default_trial(study: optuna.Study) -> optuna.trial.FrozenTrial | None:
    for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        if trial.user_attrs.get("paper_defaults"):
            return trial
    return None
