"""SQLite transactions that take the write lock when they begin, so two workers cannot run one trial.

optuna pops an enqueued trial (trial 0, the paper's setting, is always enqueued) by reading it as WAITING and then
setting it RUNNING, and relies on SELECT ... FOR UPDATE to make that pair atomic. SQLite has no FOR UPDATE, and
Python's sqlite3 opens a transaction only at the first write, so two workers on one study file can both read the
trial as WAITING and both run it; the slower one then fails to record it (UpdateFinishedTrialError) and its worker
exits. Starting every transaction with BEGIN IMMEDIATE takes SQLite's write lock before the read, so the second
worker waits (up to the connection's timeout) and then finds the trial RUNNING. Server databases need none of this.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy
from sqlalchemy import event


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
