"""The pruner replay: a finished study's settings fed again to a pruner from their run logs."""

from __future__ import annotations

import json

import optuna
import pytest
from optuna.distributions import IntDistribution
from optuna.trial import TrialState

from hopkit.optimize.objective import setting_key, slice_bounds
from hopkit.optimize.pruning import ReplayedSetting, replay_pruner, study_settings
from hopkit.optimize.study import make_pruner

ORDER = [f"q{i}" for i in range(10)]
# k -> F1 of each of the 10 dev questions: k=3 starts weak and ends best, k=2 trails throughout
SCORES = {1: [1, 0, 1, 0, 1, 0, 1, 0, 1, 0], 4: [1, 1, 0, 0, 1, 0, 1, 0, 0, 1],
          2: [0, 0, 0, 0, 0, 0, 0, 1, 0, 0], 3: [0, 0, 1, 1, 1, 1, 1, 1, 1, 1]}


def rows_of(k: int) -> list[dict]:
    return [{"qid": qid, "metrics": {"f1": float(s)}, "cost": {"lm_calls": 2, "seconds": 36.0 * k}}
            for qid, s in zip(ORDER, SCORES[k])]


def settings() -> list[ReplayedSetting]:
    return [ReplayedSetting({"k": k}, {"k": IntDistribution(1, 10)}, rows_of(k)) for k in SCORES]


def test_without_pruning_every_question_is_answered_and_the_best_setting_chosen():
    replay = replay_pruner(settings(), ORDER, "f1", 5, make_pruner("none"), "none")
    assert (replay.pruned, replay.questions, replay.questions_unpruned) == (0, 40, 40)
    assert replay.chosen == replay.chosen_unpruned == {"k": 3} and replay.same_setting
    assert replay.hours == replay.hours_unpruned == pytest.approx(10 * 36 * (1 + 4 + 2 + 3) / 3600, abs=1e-3)


def test_the_median_pruner_stops_the_trailing_setting_and_can_stop_a_late_winner():
    replay = replay_pruner(settings(), ORDER, "f1", 5, make_pruner("median", 2), "median:2")
    # after k=1 and k=4 finish, k=2 trails their median (0.5) after 2 questions, and so does k=3 (0.0 after 2)
    assert replay.pruned == 2 and replay.questions == 10 + 10 + 2 + 2
    assert replay.chosen == {"k": 1} and replay.chosen_unpruned == {"k": 3} and not replay.same_setting
    assert replay.hours == pytest.approx((360 + 1440 + 2 * 72 + 2 * 108) / 3600, abs=1e-3)
    assert "24 of 40 questions (60%)" in replay.line() and "without pruning: {'k': 3}" in replay.line()


def test_a_setting_missing_dev_questions_is_refused():
    short = [ReplayedSetting({"k": 1}, {"k": IntDistribution(1, 10)}, rows_of(1)[:7])]
    with pytest.raises(ValueError, match="7 of 10 dev questions.*unpruned_check = true"):
        replay_pruner(short, ORDER, "f1", 5, make_pruner("none"), "none")


def test_replaying_the_studys_own_pruner_reproduces_its_decisions(tmp_path):
    """A real study with the median pruner, every trial reporting from the rows; its settings' logs are then
    finished on all of dev (as unpruned_check = true does) and the replay must prune the same settings at the same
    questions."""
    folder = tmp_path / "settings"
    folder.mkdir()
    study = optuna.create_study(direction="maximize", pruner=make_pruner("median", 2))
    for k in SCORES:
        study.enqueue_trial({"k": k})
    bounds = slice_bounds(len(ORDER), 5)

    def objective(trial: optuna.Trial) -> float:
        k = trial.suggest_int("k", 1, 10)
        for end in bounds[:-1]:
            trial.report(sum(SCORES[k][:end]) / end, step=end)
            if trial.should_prune():
                trial.set_user_attr("n", end)
                raise optuna.TrialPruned()
        trial.set_user_attr("n", len(ORDER))
        return sum(SCORES[k]) / len(ORDER)

    study.optimize(objective, n_trials=len(SCORES))
    for k in SCORES:  # every setting's log, finished on all of dev
        key = setting_key({"k": k, "demos": "d0"})
        # a run spec's metadata drops a knob at its profile value (k = 4 here): the log is found by its name
        knobs = {} if k == 4 else {"k": k}
        (folder / f"setting-{key}.meta.json").write_text(json.dumps({"knobs": knobs, "demos": "d0"}))
        (folder / f"setting-{key}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows_of(k)))
    replay = replay_pruner(study_settings(study, folder), ORDER, "f1", 5, make_pruner("median", 2), "median:2")
    answered = sum(t.user_attrs["n"] for t in study.trials)
    pruned = sum(t.state == TrialState.PRUNED for t in study.trials)
    assert (replay.questions, replay.pruned) == (answered, pruned) == (24, 2)
    assert replay.chosen == study.best_trial.params
