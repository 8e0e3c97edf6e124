"""What pruning saved a study, and what it cost: the questions its trials answered and the LM hours they took,
against the same trials each answering all of dev, and whether the setting chosen would have been the same.

The unpruned figures come from finishing every pruned trial's setting on all of dev (its run log resumes, and the
LM cache replays what was asked before); the LM hours are as computed (hopkit.lm.usage.computed_cost), so a
replayed call costs what it cost the first time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import dspy
import optuna
from optuna.trial import TrialState

from hopkit.lm.usage import computed_cost
from hopkit.optimize.call_cap import OVER_CAP
from hopkit.optimize.objective import setting_key


@dataclass(frozen=True)
class PruningReport:
    settings: int
    questions_pruned: int
    questions_unpruned: int
    lm_hours_pruned: float
    lm_hours_unpruned: float
    chosen_pruned: dict[str, Any]
    chosen_unpruned: dict[str, Any]
    same_setting: bool

    @property
    def share(self) -> float:
        return self.questions_pruned / self.questions_unpruned if self.questions_unpruned else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "share_of_questions": round(self.share, 3)}

    def line(self) -> str:
        return (f"pruning: {self.questions_pruned} questions answered over {self.settings} settings against "
                f"{self.questions_unpruned} without pruning ({100 * self.share:.0f}%), {self.lm_hours_pruned:.2f} "
                f"against {self.lm_hours_unpruned:.2f} LM hours; the chosen setting is "
                + ("the same" if self.same_setting else
                   f"not the same ({self.chosen_pruned} pruned, {self.chosen_unpruned} unpruned)"))


def lm_hours(rows: Sequence[dict]) -> float:
    return sum(computed_cost(r.get("cost") or {})["seconds"] for r in rows) / 3600


def check_pruning(study: optuna.Study, dev: Sequence[dspy.Example], metric: str,
                  rows_of: Callable[[dict[str, Any]], list[dict]],
                  finish: Callable[[dict[str, Any]], list[dict]], maximize: bool = True) -> PruningReport:
    """``rows_of(knobs)``: the setting's rows so far; ``finish(knobs)``: its rows on all of dev."""
    trials = [t for t in study.get_trials(deepcopy=False)  # a trial the call cap stopped was not the pruner's call
              if t.state in (TrialState.COMPLETE, TrialState.PRUNED) and OVER_CAP not in t.user_attrs]
    order = [ex.qid for ex in dev]
    settings: dict[str, dict[str, Any]] = {}
    reached: dict[str, int] = {}
    for trial in trials:  # a setting tried twice answered its questions once
        key = setting_key(trial.params)
        settings[key] = trial.params
        reached[key] = max(reached.get(key, 0), int(trial.user_attrs.get("n", len(order))))
    before = {key: [r for r in rows_of(knobs) if r["qid"] in set(order[:reached[key]])]
              for key, knobs in settings.items()}
    complete = [t for t in trials if t.state == TrialState.COMPLETE]
    best = (max if maximize else min)(complete, key=lambda t: t.values[0])
    after = {key: finish(knobs) for key, knobs in settings.items()}

    def full(key: str) -> float:
        rows = after[key]
        return sum(r["metrics"][metric] for r in rows) / len(rows) if rows else float("-inf")

    unpruned = (max if maximize else min)(settings, key=full)
    return PruningReport(settings=len(settings), questions_pruned=sum(len(r) for r in before.values()),
                         questions_unpruned=sum(len(r) for r in after.values()),
                         lm_hours_pruned=round(sum(lm_hours(r) for r in before.values()), 3),
                         lm_hours_unpruned=round(sum(lm_hours(r) for r in after.values()), 3),
                         chosen_pruned=best.params, chosen_unpruned=settings[unpruned],
                         same_setting=setting_key(best.params) == unpruned)
