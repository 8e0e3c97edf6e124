"""A worker that takes enqueued trials from a shared study through hopkit's storage and prints their numbers."""

import json
import sys
import warnings
from pathlib import Path

import optuna

sys.path.insert(0, str(Path(__file__).parent.parent))

from hopkit.optimize.study import rdb_storage  # noqa: E402

if __name__ == "__main__":
    url, asks = sys.argv[1], int(sys.argv[2])
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.simplefilter("ignore")  # heartbeats outside Study.optimize: optuna warns, and it is harmless here
    study = optuna.load_study(study_name="race", storage=rdb_storage(url, 60, 180))
    taken = []
    for _ in range(asks):
        trial = study.ask()
        taken.append(trial.number)
        try:
            study.tell(trial, 0.0)
        except optuna.exceptions.UpdateFinishedTrialError:
            taken.append("told twice")  # the other worker ran this trial too
    print(json.dumps(taken))
