"""The snapshot/restore scripts that carry optimizer studies across machines: a study copied out and back in
loads with the same trials, and a restore never overwrites a study folder that already exists."""

from __future__ import annotations

from pathlib import Path

import optuna
from script_loader import load_script


snapshot_studies = load_script("snapshot_studies")
restore_studies = load_script("restore_studies")


def _make_study(folder: Path, n_trials: int) -> list[float]:
    folder.mkdir(parents=True)
    (folder / "settings").mkdir()
    (folder / "settings" / "setting-abc.jsonl").write_text('{"qid": "q1"}\n')
    study = optuna.create_study(
        study_name=folder.name, storage=f"sqlite:///{folder / 'study.db'}",
        sampler=optuna.samplers.TPESampler(seed=0),
    )
    study.optimize(lambda trial: trial.suggest_float("theta", 0.0, 1.0), n_trials=n_trials)
    return [t.value for t in study.trials]


def _values(folder: Path) -> list[float]:
    study = optuna.load_study(study_name=folder.name, storage=f"sqlite:///{folder / 'study.db'}")
    return [t.value for t in study.trials]


def test_snapshot_then_restore_gives_back_the_same_study(tmp_path: Path) -> None:
    live = tmp_path / "runs" / "study-a"
    values = _make_study(live, n_trials=3)
    snapshot_studies.snapshot(live, tmp_path / "docs" / "study-a")

    fresh = tmp_path / "fresh-runs"
    fresh.mkdir()
    restored = restore_studies.restore(tmp_path / "docs", fresh)

    assert restored == ["study-a"]
    assert _values(fresh / "study-a") == values
    assert (fresh / "study-a" / "settings" / "setting-abc.jsonl").read_text() == '{"qid": "q1"}\n'


def test_restore_leaves_an_existing_study_folder_alone(tmp_path: Path) -> None:
    _make_study(tmp_path / "old" / "study-a", n_trials=2)
    snapshot_studies.snapshot(tmp_path / "old" / "study-a", tmp_path / "docs" / "study-a")
    newer = _make_study(tmp_path / "runs" / "study-a", n_trials=4)

    restored = restore_studies.restore(tmp_path / "docs", tmp_path / "runs")

    assert restored == []
    assert _values(tmp_path / "runs" / "study-a") == newer
