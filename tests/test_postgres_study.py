"""Optimization studies shared over a real PostgreSQL server: two workers on one study, one killed, resumed;
no trial lost or run twice, and the same best trial as a SQLite run of the same seeded study."""

import json
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest
from postgres_server import PostgresServer, missing

REASON = missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=str(REASON))
WORKER = Path(__file__).parent / "optimize_worker.py"
TRIALS = 8
FINISHED = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)


@pytest.fixture
def postgres():
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="hopkit-pg-"))  # under /tmp: pytest's folders are closed to the server's user
    server = PostgresServer(folder)
    try:
        yield server.start()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _worker(folder, storage, trials, delay):
    return subprocess.Popen([sys.executable, str(WORKER), str(folder), storage, str(trials), str(delay)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _settings(trials):
    return [tuple(sorted(t.params.items())) for t in trials]


def test_two_workers_one_killed_then_resumed_lose_no_trial_and_match_sqlite(postgres, tmp_path):
    from hopkit.optimize.search_space import profile_defaults, search_space
    from hopkit.optimize.study import enqueue_paper_trial, open_study

    # the study exists, with the papers' setting queued, before the workers start (as when a second worker
    # joins a running study); the workers share one folder, so a setting's finished questions are never redone
    enqueue_paper_trial(open_study("shared", postgres, ["maximize"]), profile_defaults(search_space("oner")))
    folder = tmp_path / "study"
    first, second = _worker(folder, postgres, TRIALS, 0.3), _worker(folder, postgres, TRIALS, 0.3)
    deadline = time.time() + 180
    while time.time() < deadline:
        time.sleep(0.3)
        trials = optuna.load_study(study_name="shared", storage=postgres).trials
        if sum(t.state == optuna.trial.TrialState.COMPLETE for t in trials) >= 2:
            break
    first.kill()
    first.wait()
    assert second.wait(timeout=300) == 0, second.stdout.read().decode()
    time.sleep(3)  # past the heartbeat grace period: the killed worker's running trial is stale
    resumed = subprocess.run([sys.executable, str(WORKER), str(folder), postgres, str(TRIALS), "0.0"],
                             capture_output=True, timeout=300)
    assert resumed.returncode == 0, resumed.stdout.decode() + resumed.stderr.decode()
    study = optuna.load_study(study_name="shared", storage=postgres)
    finished = study.get_trials(states=FINISHED)
    settings = _settings(finished)
    assert len(set(settings)) >= TRIALS, settings  # no setting lost
    for log in (folder / "settings").glob("setting-*.jsonl"):  # no question of a setting evaluated twice
        qids = [json.loads(line)["qid"] for line in log.read_text().splitlines() if line.strip()]
        assert len(qids) == len(set(qids)), log.name
    per_worker = {}
    for trial in study.trials:
        per_worker[trial.user_attrs.get("worker", "?")] = per_worker.get(trial.user_attrs.get("worker", "?"), 0) + 1
    print(f"trials per worker: {per_worker}; states: "
          f"{ {s.name: sum(t.state == s for t in study.trials) for s in optuna.trial.TrialState} }")
    assert len(per_worker) >= 2
    assert not study.get_trials(states=(optuna.trial.TrialState.RUNNING, optuna.trial.TrialState.WAITING))

    sqlite = f"sqlite:///{tmp_path / 'study.db'}"
    open_study("shared", sqlite, ["maximize"])
    alone = subprocess.run([sys.executable, str(WORKER), str(tmp_path / "d"), sqlite, str(TRIALS), "0.0"],
                           capture_output=True, timeout=300)
    assert alone.returncode == 0, alone.stdout.decode() + alone.stderr.decode()
    reference = optuna.load_study(study_name="shared", storage=sqlite)
    assert study.best_value == reference.best_value
    assert study.best_trial.params == reference.best_trial.params
