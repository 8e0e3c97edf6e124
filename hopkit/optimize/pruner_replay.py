"""What another pruner would have done on a finished study: its settings, in the order the study first tried them,
are fed again to optuna's real pruner, each reporting its running metric after every dev slice from its run log, so
a pruner is compared on the very answers the LM gave, at no LM cost.

It needs every setting answered on all of dev (a study run with ``--unpruned-check`` has that). Replaying the study's
own pruner reproduces its pruning decisions, which checks the replay; the sampler is not replayed (the settings come
in the study's order), so a pruner that would have let the sampler learn from other values is judged on the same
draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import optuna
from optuna.distributions import BaseDistribution
from optuna.trial import TrialState

from hopkit.evaluation.run_log import final_rows, parse_lines
from hopkit.optimize.objective import setting_key, slice_bounds
from hopkit.optimize.pruning import lm_hours
from hopkit.optimize.setting_logs import setting_logs


@dataclass(frozen=True)
class ReplayedSetting:
    params: dict[str, Any]
    distributions: dict[str, BaseDistribution]
    rows: list[dict]  # the setting's run-log rows, one a dev question


@dataclass(frozen=True)
class PrunerReplay:
    pruner: str
    settings: int
    pruned: int  # settings the pruner stopped
    questions: int
    questions_unpruned: int
    hours: float  # LM hours as computed, of the questions answered
    hours_unpruned: float
    chosen: dict[str, Any]
    chosen_unpruned: dict[str, Any]

    @property
    def share(self) -> float:
        return self.questions / self.questions_unpruned if self.questions_unpruned else 1.0

    @property
    def same_setting(self) -> bool:
        return setting_key(self.chosen) == setting_key(self.chosen_unpruned)

    def line(self) -> str:
        return (f"{self.pruner}: {self.pruned} of {self.settings} settings pruned; {self.questions} of "
                f"{self.questions_unpruned} questions ({100 * self.share:.0f}%), {self.hours:.2f} of "
                f"{self.hours_unpruned:.2f} LM hours; chooses {self.chosen}"
                + (" (the same as without pruning)" if self.same_setting else
                   f" (without pruning: {self.chosen_unpruned})"))


def replay_pruner(settings: Sequence[ReplayedSetting], order: Sequence[str], metric: str, slices: int,
                  pruner: optuna.pruners.BasePruner, name: str, maximize: bool = True) -> PrunerReplay:
    """Feed ``settings`` (each answered on every question of ``order``, the dev questions in the study's order)
    to ``pruner`` one after another, as a study with ``slices`` dev slices would."""
    if not settings:
        raise ValueError("no settings to replay")
    in_dev_order = [_rows_in_order(setting, order) for setting in settings]
    study = optuna.create_study(direction="maximize" if maximize else "minimize", pruner=pruner)
    bounds = slice_bounds(len(order), slices)
    reached: list[int] = []
    for setting, rows in zip(settings, in_dev_order):
        study.enqueue_trial(setting.params)
        trial = study.ask(fixed_distributions=setting.distributions)
        for end in bounds:
            value = _mean(rows[:end], metric)
            if end < len(order):
                trial.report(value, step=end)
                if trial.should_prune():
                    study.tell(trial, state=TrialState.PRUNED)
                    break
            else:
                study.tell(trial, value)
        reached.append(end)
    complete = [t for t in study.trials if t.state == TrialState.COMPLETE]
    pick = max if maximize else min
    chosen = pick(complete, key=lambda t: t.values[0]).params
    unpruned = pick(range(len(settings)), key=lambda i: _mean(in_dev_order[i], metric))
    return PrunerReplay(
        pruner=name, settings=len(settings), pruned=sum(t.state == TrialState.PRUNED for t in study.trials),
        questions=sum(reached), questions_unpruned=len(order) * len(settings),
        hours=round(sum(lm_hours(rows[:end]) for rows, end in zip(in_dev_order, reached)), 3),
        hours_unpruned=round(sum(lm_hours(rows) for rows in in_dev_order), 3),
        chosen=chosen, chosen_unpruned=settings[unpruned].params)


def _rows_in_order(setting: ReplayedSetting, order: Sequence[str]) -> list[dict]:
    answered = {row["qid"]: row for row in final_rows(setting.rows)}  # an error row scores as it did in the study
    missing = [qid for qid in order if qid not in answered]
    if missing:
        raise ValueError(f"setting {setting.params} has {len(order) - len(missing)} of {len(order)} dev questions "
                         f"(e.g. {missing[0]} is missing): a replay needs every setting on all of dev, as a study "
                         "run with --unpruned-check leaves them")
    return [answered[qid] for qid in order]


def _mean(rows: Sequence[dict], metric: str) -> float:
    return sum(row["metrics"][metric] for row in rows) / len(rows)


def study_settings(study: optuna.Study, settings_dir: Path) -> list[ReplayedSetting]:
    """The study's settings in the order its pruner met them (each setting's first trial that completed or was
    pruned), with the rows of its run log in ``settings_dir`` (``setting-*.jsonl`` beside ``.meta.json``)."""
    logs = {setting_key(meta["knobs"]): log for meta, log in setting_logs(settings_dir)}
    settings: dict[str, ReplayedSetting] = {}
    for trial in sorted(study.get_trials(deepcopy=False), key=lambda t: t.number):
        key = setting_key(trial.params)
        if trial.state not in (TrialState.COMPLETE, TrialState.PRUNED) or key in settings:
            continue
        if key not in logs:
            raise ValueError(f"trial {trial.number}'s setting {trial.params} has no run log in {settings_dir}")
        rows, _ = parse_lines(logs[key].read_text(encoding="utf-8").splitlines())
        settings[key] = ReplayedSetting(trial.params, dict(trial.distributions), rows)
    return list(settings.values())
