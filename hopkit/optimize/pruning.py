"""Pruning: the pruner a study uses, and what pruning saved and changed, both checked on the study itself (every pruned
trial finished on all of dev) and replayed on a finished study's logs for another pruner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import dspy
import optuna
from optuna.distributions import BaseDistribution
from optuna.trial import TrialState

from hopkit.evaluation.run_log import final_rows, parse_lines
from hopkit.lm.usage import computed_cost
from hopkit.optimize.objective import OVER_CAP, setting_key, setting_log_name, slice_bounds
from hopkit.optimize.study import setting_logs


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
                + _saved(self.questions_unpruned, "without pruning", self.share, self.lm_hours_pruned, "against",
                         self.lm_hours_unpruned)
                + "; the chosen setting is " + ("the same" if self.same_setting else
                                                f"not the same ({self.chosen_pruned} pruned, {self.chosen_unpruned} "
                                                "unpruned)"))


def _saved(questions_unpruned: int, noun: str, share: float, hours: float, word: str, hours_unpruned: float) -> str:
    """What pruning left to answer, against answering every setting on all of dev."""
    return f"{questions_unpruned} {noun} ({100 * share:.0f}%), {hours:.2f} {word} {hours_unpruned:.2f} LM hours"


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
                + _saved(self.questions_unpruned, "questions", self.share, self.hours, "of", self.hours_unpruned)
                + f"; chooses {self.chosen}" + (" (the same as without pruning)" if self.same_setting else
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
                         "run with unpruned_check = true leaves them")
    return [answered[qid] for qid in order]


def _mean(rows: Sequence[dict], metric: str) -> float:
    return sum(row["metrics"][metric] for row in rows) / len(rows)


def study_settings(study: optuna.Study, settings_dir: Path) -> list[ReplayedSetting]:
    """The study's settings in the order its pruner met them (each setting's first trial that completed or was
    pruned), with the rows of its run log in ``settings_dir`` (``setting-*.jsonl`` beside ``.meta.json``)."""
    metas = setting_logs(settings_dir)
    logs = {log.name: log for _, log in metas}  # found by name (setting_log_name)
    demos = {meta.get("demos") for meta, _ in metas}
    settings: dict[str, ReplayedSetting] = {}
    for trial in sorted(study.get_trials(deepcopy=False), key=lambda t: t.number):
        key = setting_key(trial.params)
        if trial.state not in (TrialState.COMPLETE, TrialState.PRUNED) or key in settings:
            continue
        names = [setting_log_name(trial.params, d) for d in demos]
        found = [logs[name] for name in names if name in logs and logs[name].is_file()]
        if not found:
            raise ValueError(f"trial {trial.number}'s setting {trial.params} has no run log in {settings_dir}")
        rows, _ = parse_lines(found[0].read_text(encoding="utf-8").splitlines())
        settings[key] = ReplayedSetting(trial.params, dict(trial.distributions), rows)
    return list(settings.values())
