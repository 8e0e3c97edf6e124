"""Where hopkit works around optuna (and SQLite under it), one item a section, each naming the upstream behaviour:

1. **SQLite transactions** (``begin_immediately``). optuna pops an enqueued trial by reading it WAITING and setting
   it RUNNING, and relies on SELECT ... FOR UPDATE to make the pair atomic; SQLite has none, and Python's sqlite3
   opens a transaction only at the first write, so two workers could both run one trial.
2. **Dead trials** (``fail_dead_trials``). optuna fails a running trial once its heartbeat is older than the grace
   period, but skips a trial whose worker died before its first heartbeat, which then runs forever.
3. **Trial-seeded sampling** (``TrialSeededTPESampler``). One ``TPESampler(seed=s)`` per process replays the same
   draws whenever a study is resumed or worked by a second process.
4. **A median pruner that counts a setting once** (``DistinctSettingsMedianPruner``). optuna's MedianPruner counts
   trials, so a setting drawn twice counts twice toward the startup and weighs twice in the median.
"""

from __future__ import annotations

import copy
import hashlib
import statistics
import warnings
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import optuna
import sqlalchemy
from optuna.distributions import BaseDistribution
from optuna.samplers import BaseSampler, TPESampler
from optuna.storages import RDBStorage, fail_stale_trials
from optuna.study import Study, StudyDirection
from optuna.trial import FrozenTrial, TrialState
from sqlalchemy import event

from hopkit.optimize.objective import setting_key

# ---- 1. SQLite transactions that take the write lock when they begin ----
# SQLite transactions that take the write lock when they begin, so two workers cannot run one trial.
#
# optuna pops an enqueued trial (trial 0, the paper's setting, is always enqueued) by reading it as WAITING and then
# setting it RUNNING, and relies on SELECT ... FOR UPDATE to make that pair atomic. SQLite has no FOR UPDATE, and
# Python's sqlite3 opens a transaction only at the first write, so two workers on one study file can both read the
# trial as WAITING and both run it; the slower one then fails to record it (UpdateFinishedTrialError) and its worker
# exits. Starting every transaction with BEGIN IMMEDIATE takes SQLite's write lock before the read, so the second
# worker waits (up to the connection's timeout) and then finds the trial RUNNING. Server databases need none of this.

def begin_immediately(engine: sqlalchemy.engine.Engine) -> None:
    """From now on every transaction on ``engine`` (a SQLite one) begins with BEGIN IMMEDIATE; connections
    already pooled are dropped so that each new one is set up so."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _no_implicit_begin(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # sqlite3's own deferred BEGIN off: the "begin" hook below rules

    @event.listens_for(engine, "begin")
    def _begin_immediate(connection: sqlalchemy.engine.Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    engine.dispose()


# ---- 2. Trials whose worker died ----
# Trials whose worker died: optuna fails a running trial once its heartbeat is older than the grace
# period, but a worker killed after the trial was created and before its first heartbeat leaves the
# trial running forever (optuna skips trials with no heartbeat). Both kinds are failed here, and the
# storage's stale-trial callback retries them with the same knobs.

def fail_dead_trials(study: optuna.Study) -> list[int]:
    """Fail the study's stale trials and its never-heartbeaten ones older than the grace period;
    returns the ids of the second kind (the first are optuna's own)."""
    with warnings.catch_warnings():  # heartbeats are marked experimental in optuna 5
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        fail_stale_trials(study)
    storage = study._storage  # optuna's cache over the database: state changes go through it
    database = getattr(storage, "_backend", storage)
    if not isinstance(database, RDBStorage) or database.heartbeat_interval is None:
        return []
    grace = timedelta(seconds=database.grace_period or 2 * database.heartbeat_interval)
    failed = []
    for trial_id in never_beaten_trials(database, study._study_id, started_before=datetime.now() - grace):
        try:
            if storage.set_trial_state_values(trial_id, state=TrialState.FAIL):
                failed.append(trial_id)
        except optuna.exceptions.UpdateFinishedTrialError:
            pass  # another worker failed it first, or it finished
    retry = database.get_heartbeat_stale_trial_callback()
    if retry is not None:
        for trial_id in failed:
            retry(study, copy.deepcopy(storage.get_trial(trial_id)))
    return failed


def never_beaten_trials(database: RDBStorage, study_id: int, started_before: datetime) -> list[int]:
    """Running trials started before ``started_before`` (local time, as optuna stamps them) that never
    recorded a heartbeat. Reads optuna's heartbeat table, which has no public reader; an optuna that
    moves it makes this return nothing, never fail."""
    try:
        from optuna.storages._rdb.models import TrialModel
    except ImportError:
        return []
    session = database.scoped_session()
    try:
        running = (session.query(TrialModel)
                   .filter(TrialModel.state == TrialState.RUNNING, TrialModel.study_id == study_id).all())
        return [trial.trial_id for trial in running if not getattr(trial, "heartbeats", True)
                and trial.datetime_start is not None and trial.datetime_start < started_before]
    finally:
        session.close()


# ---- 3. A TPE sampler whose draws for trial n are seeded by (seed, n) ----
# A TPE sampler whose draws for trial n are seeded by (seed, n).
#
# One ``TPESampler(seed=s)`` per process replays the same random draws whenever a study is resumed
# or worked by a second process: every new invocation starts the generator again, so a resumed
# study re-proposes the settings it already tried. TPE keeps no state besides its generator (it
# reads the history from the study on every trial), so a fresh TPE per trial number, seeded from
# that number, samples exactly as TPE does while keeping a resumed or shared study's draws new and
# a fresh single-process study reproducible.

def trial_seed(seed: int, number: int) -> int:
    """Hashed, not added: nearby integer seeds give correlated first draws from numpy's generator."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{number}".encode()).digest()[:4], "little")


class TrialSeededTPESampler(BaseSampler):
    def __init__(self, seed: int = 0, multivariate: bool = True) -> None:
        self.seed = seed
        self.multivariate = multivariate
        self._by_trial: dict[int, TPESampler] = {}

    def _tpe(self, trial: FrozenTrial) -> TPESampler:
        if trial.number not in self._by_trial:
            with warnings.catch_warnings():  # multivariate TPE is marked experimental
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                self._by_trial[trial.number] = TPESampler(seed=trial_seed(self.seed, trial.number),
                                                          multivariate=self.multivariate)
        return self._by_trial[trial.number]

    def infer_relative_search_space(self, study: Study, trial: FrozenTrial) -> dict[str, BaseDistribution]:
        return self._tpe(trial).infer_relative_search_space(study, trial)

    def sample_relative(self, study: Study, trial: FrozenTrial,
                        search_space: dict[str, BaseDistribution]) -> dict[str, Any]:
        return self._tpe(trial).sample_relative(study, trial, search_space)

    def sample_independent(self, study: Study, trial: FrozenTrial, param_name: str,
                           param_distribution: BaseDistribution) -> Any:
        return self._tpe(trial).sample_independent(study, trial, param_name, param_distribution)

    def before_trial(self, study: Study, trial: FrozenTrial) -> None:
        self._tpe(trial).before_trial(study, trial)

    def after_trial(self, study: Study, trial: FrozenTrial, state: TrialState,
                    values: Sequence[float] | None) -> None:
        self._tpe(trial).after_trial(study, trial, state, values)
        self._by_trial.pop(trial.number, None)


# ---- 4. The median pruner over distinct settings ----
# The median pruner over distinct settings.
#
# optuna's MedianPruner counts trials: a setting the sampler drew twice (the objective answers the repeat from the
# setting's log at no cost) then counts twice toward the startup and weighs twice in the median, so pruning starts one
# setting early and its median leans toward the repeated setting. Here each setting counts once, as the trial budget
# (``StopAtDistinctSettings``) counts it. A trial is stopped after a dev slice when its running metric is worse than the
# median, at that slice, of the other finished settings, once ``startup`` distinct settings have finished.

class DistinctSettingsMedianPruner(optuna.pruners.BasePruner):
    def __init__(self, startup: int = 3) -> None:
        if startup < 0:
            raise ValueError(f"the pruner's startup must be 0 or more finished settings, got {startup}")
        self.startup = startup

    def prune(self, study: optuna.Study, trial: FrozenTrial) -> bool:
        step = trial.last_step
        if step is None:
            return False
        own = setting_key(trial.params)
        by_setting: dict[str, FrozenTrial] = {}
        for done in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            by_setting.setdefault(setting_key(done.params), done)
        if len(by_setting) < self.startup:
            return False
        others = [done.intermediate_values[step] for key, done in by_setting.items()
                  if key != own and step in done.intermediate_values]
        if not others:
            return False
        median = statistics.median(others)
        value = trial.intermediate_values[step]
        return value > median if study.direction == StudyDirection.MINIMIZE else value < median
