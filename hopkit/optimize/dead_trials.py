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
    storage = study._storage
    database = getattr(storage, "_backend", storage)  # optuna wraps an RDBStorage in a cache
    if not isinstance(database, RDBStorage) or database.heartbeat_interval is None:
        return []
    grace = timedelta(seconds=database.grace_period or 2 * database.heartbeat_interval)
    failed = []
    for trial_id in trials_without_heartbeat(database, study._study_id):
        trial = storage.get_trial(trial_id)
        started = trial.datetime_start  # set by optuna in local time, as datetime.now() below
        if trial.state != TrialState.RUNNING or started is None or datetime.now() - started <= grace:
            continue
        try:
            if storage.set_trial_state_values(trial_id, state=TrialState.FAIL):
                failed.append(trial_id)
        except optuna.exceptions.UpdateFinishedTrialError:
            pass  # another worker failed it first
    retry = storage.get_heartbeat_stale_trial_callback()
    for trial_id in failed if retry is not None else []:
        retry(study, copy.deepcopy(storage.get_trial(trial_id)))
    return failed


def trials_without_heartbeat(storage: RDBStorage, study_id: int) -> list[int]:
    """Running trials that never recorded a heartbeat. Reads optuna's heartbeat table, which has no
    public reader; an optuna that renames it makes this return nothing, never fail."""
    try:
        from optuna.storages._rdb import models
    except ImportError:
        return []
    session = storage.scoped_session()
    try:
        running = (session.query(models.TrialModel)
                   .filter(models.TrialModel.state == TrialState.RUNNING)
                   .filter(models.TrialModel.study_id == study_id).all())
        return [trial.trial_id for trial in running if not getattr(trial, "heartbeats", [None])]
    finally:
        session.close()
