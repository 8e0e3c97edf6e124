"""A TPE sampler whose draws for trial n are seeded by (seed, n).

One ``TPESampler(seed=s)`` per process replays the same random draws whenever a study is resumed
or worked by a second process: every new invocation starts the generator again, so a resumed
study re-proposes the settings it already tried. TPE keeps no state besides its generator (it
reads the history from the study on every trial), so a fresh TPE per trial number, seeded from
that number, samples exactly as TPE does while keeping a resumed or shared study's draws new and
a fresh single-process study reproducible.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Sequence
from typing import Any

import optuna
from optuna.distributions import BaseDistribution
from optuna.samplers import BaseSampler, TPESampler
from optuna.study import Study
from optuna.trial import FrozenTrial, TrialState


def trial_seed(seed: int, number: int) -> int:
    """Hashed, not added: nearby integer seeds give correlated first draws from numpy's generator."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{number}".encode()).digest()[:4], "little")


class TrialSeededTPESampler(BaseSampler):
    def __init__(self, seed: int = 0, multivariate: bool = True) -> None:
        self.seed = seed
        self.multivariate = multivariate
        self._by_trial: dict[int, TPESampler] = {}

    def _tpe(self, trial: FrozenTrial) -> TPESampler:
        if trial.number not in self._by_trial:
            with warnings.catch_warnings():  # multivariate TPE is marked experimental
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                self._by_trial[trial.number] = TPESampler(seed=trial_seed(self.seed, trial.number),
                                                          multivariate=self.multivariate)
        return self._by_trial[trial.number]

    def infer_relative_search_space(self, study: Study, trial: FrozenTrial) -> dict[str, BaseDistribution]:
        return self._tpe(trial).infer_relative_search_space(study, trial)

    def sample_relative(self, study: Study, trial: FrozenTrial,
                        search_space: dict[str, BaseDistribution]) -> dict[str, Any]:
        return self._tpe(trial).sample_relative(study, trial, search_space)

    def sample_independent(self, study: Study, trial: FrozenTrial, param_name: str,
                           param_distribution: BaseDistribution) -> Any:
        return self._tpe(trial).sample_independent(study, trial, param_name, param_distribution)

    def before_trial(self, study: Study, trial: FrozenTrial) -> None:
        self._tpe(trial).before_trial(study, trial)

    def after_trial(self, study: Study, trial: FrozenTrial, state: TrialState,
                    values: Sequence[float] | None) -> None:
        self._tpe(trial).after_trial(study, trial, state, values)
        self._by_trial.pop(trial.number, None)
