"""The median pruner over distinct settings.

optuna's MedianPruner counts trials: a setting the sampler drew twice (the objective answers the repeat from the
setting's log at no cost) then counts twice toward the startup and weighs twice in the median, so pruning starts one
setting early and its median leans toward the repeated setting. Here each setting counts once, as the trial budget
(``StopAtDistinctSettings``) counts it. A trial is stopped after a dev slice when its running metric is worse than the
median, at that slice, of the other finished settings, once ``startup`` distinct settings have finished.
"""

from __future__ import annotations

import statistics

import optuna
from optuna.study import StudyDirection
from optuna.trial import FrozenTrial, TrialState

from hopkit.optimize.objective import setting_key


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
