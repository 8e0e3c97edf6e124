"""A study in any optuna storage: opened or created, the paper's trial enqueued first, trials run to a count of
distinct settings, and the per-setting run logs a study folder holds.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import optuna
import sqlalchemy.exc
from optuna.storages import RDBStorage, RetryHeartbeatStaleTrialCallback
from optuna.trial import FrozenTrial, TrialState

from hopkit.errors import StorageError
from hopkit.optimize.objective import setting_key
from hopkit.optimize.optuna_compat import (
    DistinctSettingsMedianPruner,
    TrialSeededTPESampler,
    begin_immediately,
    fail_dead_trials,
)

FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)

Direction = Literal["minimize", "maximize"]  # what an objective optimizes, in optuna's words


def sqlite_url(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path.resolve()}"


PRUNERS = ("median", "halving", "none")


def make_pruner(kind: str, prune_startup: int = 3) -> optuna.pruners.BasePruner:
    """``median``: stop a trial whose running metric after a dev slice is below the median of the other finished
    settings at the same slice, once ``prune_startup`` settings have finished (a setting tried twice counts once);
    ``halving``: successive halving, which keeps the top third at each slice; ``none``: every trial answers every
    dev question."""
    if kind == "median":
        return DistinctSettingsMedianPruner(startup=prune_startup)
    if kind == "halving":
        return optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=3,
                                                      min_early_stopping_rate=0)
    if kind == "none":
        return optuna.pruners.NopPruner()
    raise ValueError(f"unknown pruner {kind!r}; use one of {', '.join(PRUNERS)}")


def open_study(name: str, storage_url: str, directions: Sequence[Direction], seed: int = 0,
               heartbeat_s: int = 60, grace_s: int = 180, prune_startup: int = 3,
               pruner: str = "median", grid: dict[str, list[Any]] | None = None) -> optuna.Study:
    """The pruner is not stored with the study, so it may differ between runs of one study. ``grid``: optuna's
    GridSampler over those values (a paper's grid, ``hopkit reproduce``) instead of TPE; it keeps which points
    are done in the storage, so a resumed study goes on with the rest."""
    storage = rdb_storage(storage_url, heartbeat_s, grace_s)
    sampler = (optuna.samplers.GridSampler(grid, seed=seed) if grid
               else TrialSeededTPESampler(seed=seed, multivariate=True))
    return optuna.create_study(study_name=name, storage=storage, load_if_exists=True, directions=list(directions),
                               sampler=sampler,
                               pruner=make_pruner(pruner, prune_startup))


def rdb_storage(storage_url: str, heartbeat_s: int, grace_s: int) -> RDBStorage:
    """Open the storage; a URL that cannot be opened becomes a ``StorageError`` that says how to fix it."""
    try:
        return _open_retrying_schema_race(storage_url, heartbeat_s, grace_s)
    except (sqlalchemy.exc.SQLAlchemyError, ImportError) as error:
        reason = str(getattr(error, "orig", None) or error).rstrip(".")
        raise StorageError(
            f"cannot open the optuna storage {storage_url}: {reason}. Check the study file's storage: a SQLite URL "
            "needs an existing, writable folder (sqlite:///path/to/study.db); a database server needs to be up, with "
            "its "
            "driver installed.") from None


def _open_retrying_schema_race(storage_url: str, heartbeat_s: int, grace_s: int, attempts: int = 5) -> RDBStorage:
    """Workers started together on a fresh database race to create its schema: the loser gets "table ...
    already exists" or a duplicate schema-version row, and on a retry finds the schema in place."""
    def open_once() -> RDBStorage:
        with warnings.catch_warnings():  # heartbeats are marked experimental in optuna 5
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            return RDBStorage(storage_url, heartbeat_interval=heartbeat_s, grace_period=grace_s,
                              heartbeat_stale_trial_callback=RetryHeartbeatStaleTrialCallback(max_retry=3),
                              engine_kwargs=({"connect_args": {"timeout": 60}} if storage_url.startswith("sqlite")
                                             else None))

    for attempt in range(attempts - 1):
        try:
            return _serialized(open_once())
        except (sqlalchemy.exc.IntegrityError, sqlalchemy.exc.OperationalError):
            time.sleep(0.2 * (attempt + 1))
    return _serialized(open_once())


def _serialized(storage: RDBStorage) -> RDBStorage:
    begin_immediately(storage.engine)  # SQLite only: two workers must not pop one enqueued trial
    return storage


def check_storage(storage_url: str) -> None:
    """Open the storage once, so a bad storage URL fails before the datasets, retriever and LM load."""
    rdb_storage(storage_url, heartbeat_s=60, grace_s=180)


def enqueue_paper_trial(study: optuna.Study, defaults: dict[str, Any]) -> None:
    """The papers' settings run first: trial 0 of a new study, and again next if that trial raised
    (a trial that failed by error is not retried by optuna, and the study needs its baseline)."""
    alive = [t for t in study.get_trials(deepcopy=False) if t.state != TrialState.FAIL]
    if not any(t.user_attrs.get("paper_defaults") for t in alive):
        study.enqueue_trial(defaults, user_attrs={"paper_defaults": True})


def distinct_settings(trials: Sequence[FrozenTrial]) -> int:
    """Finished trials, counting a setting tried twice once."""
    return len({setting_key(t.params) for t in trials if t.state in FINISHED})


class StopAtDistinctSettings:
    """Stops the study once it holds ``n`` distinct finished settings (every worker's count), or
    ``cap`` trials in all, whichever comes first: a small space may hold fewer than ``n`` settings."""

    def __init__(self, n: int, cap: int) -> None:
        self.n, self.cap = n, cap

    def done(self, study: optuna.Study) -> bool:
        trials = study.get_trials(deepcopy=False)
        return distinct_settings(trials) >= self.n or len(trials) >= self.cap

    def __call__(self, study: optuna.Study, trial: FrozenTrial) -> None:
        if self.done(study):
            study.stop()


def run_trials(study: optuna.Study, objective: Any, n_trials: int, show_progress: bool = False,
               cap_factor: int = 3) -> int:
    """Work the study until it holds ``n_trials`` distinct finished settings, counting every
    worker's, or ``cap_factor * n_trials`` trials in all; returns the distinct settings finished."""
    stop = StopAtDistinctSettings(n_trials, cap_factor * n_trials)
    fail_dead_trials(study)  # a killed worker's trial, even when no new trial is left to start
    if not stop.done(study):
        study.optimize(objective, n_trials=None, callbacks=[stop], catch=(), show_progress_bar=show_progress,
                       gc_after_trial=False)
    waiting = [t for t in study.get_trials(deepcopy=False, states=(TrialState.WAITING,))
               if "failed_trial" in t.system_attrs]  # optuna's retry of a dead worker's trial
    if waiting:  # retries queued once the settings were all in: a finished setting's is read from its log
        study.optimize(objective, n_trials=len(waiting), catch=(), show_progress_bar=show_progress,
                       gc_after_trial=False)
    return distinct_settings(study.get_trials(deepcopy=False))


def find_paper_trial(study: optuna.Study) -> optuna.trial.FrozenTrial | None:
    for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        if trial.user_attrs.get("paper_defaults"):
            return trial
    return None


def setting_logs(settings_dir: Path) -> list[tuple[dict[str, Any], Path]]:
    """(meta, dev log) of each setting, in file order; the log may be missing or empty for a setting just begun."""
    return [(json.loads(meta.read_text(encoding="utf-8")), meta.with_name(meta.name[:-len(".meta.json")] + ".jsonl"))
            for meta in sorted(Path(settings_dir).glob("setting-*.meta.json"))]
