"""The guarded rule's verdict on a study's dev half, read from its storage and dev logs only.

Run it once a study's dev trials are all finished and before its test half is scored, and commit the
output: the verdict is then on record before any test question could inform it.

    python scripts/guarded_before_test.py docs/runs/optimize-real/searchain-musique-labeled
"""

from __future__ import annotations

import sys
from pathlib import Path

import optuna

from hopkit.evaluation.paired import read_rows
from hopkit.optimize.guarded_choice import guarded_choice_of_rows
from hopkit.optimize.setting_logs import setting_logs
from hopkit.optimize.study import distinct_settings, paper_default_trial


def dev_rows(folder: Path, params: dict) -> list[dict]:
    """The dev log whose meta names these knobs (its file name also hashes the demonstrations), read as the
    harness reads a run log (a killed worker's torn last line is skipped)."""
    for meta, log in setting_logs(folder / "settings"):
        if meta["knobs"] == params:
            return list(read_rows(log).values())
    raise FileNotFoundError(f"no dev log in {folder / 'settings'} for the knobs {params}")


def verdict(folder: Path, metric: str = "f1") -> str:
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.load_study(study_name=folder.name, storage=f"sqlite:///{folder / 'study.db'}")
    default = paper_default_trial(study)
    if default is None:
        return f"{folder.name}: no finished trial carries the paper's setting yet"
    best, settings = study.best_trial, distinct_settings(study.get_trials(deepcopy=False))
    head = (f"{folder.name}: {settings} settings; paper's trial {default.number} dev {100 * default.value:.1f}, "
            f"best trial {best.number} dev {100 * best.value:.1f} {best.params}")
    if default.number == best.number:
        return f"{head}; the best is the paper's setting, so both rules keep it"
    choice = guarded_choice_of_rows(dev_rows(folder, default.params), dev_rows(folder, best.params), metric, settings)
    kept = f"trial {best.number}" if choice.takes_best else f"trial {default.number} (the paper's)"
    return (f"{head}; guarded ({choice.comparisons} comparisons, {100 * choice.level:.1f}%): "
            f"{100 * choice.diff:+.1f} [{100 * choice.low:+.1f}, {100 * choice.high:+.1f}]; it keeps {kept}")


if __name__ == "__main__":
    for name in sys.argv[1:] or ["."]:
        print(verdict(Path(name)))
