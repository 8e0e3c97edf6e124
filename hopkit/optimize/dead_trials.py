"""Trials whose worker died: optuna fails a running trial once its heartbeat is older than the grace
period, but a worker killed after the trial was created and before its first heartbeat leaves the
trial running forever (optuna skips trials with no heartbeat). Both kinds are failed here, and the
storage's stale-trial callback retries them with the same knobs."""

from __future__ import annotations

import copy
import warnings
from datetime import datetime, timedelta

import optuna
from optuna.storages import RDBStorage, fail_stale_trials
from optuna.trial import TrialState


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
    retry = storage.get_heartbeat_stale_trial_callback()
    for trial_id in failed if retry is not None else []:
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
