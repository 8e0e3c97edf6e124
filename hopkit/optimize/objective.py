"""The objective a study's trials run: a setting's program answers growing slices of dev into its own run log,
reporting after each slice so a pruner can stop it; and the cost cap that stops a setting whose LM calls a question
exceed the study's limit (the paper's setting is never stopped).
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dspy
import optuna

from hopkit.evaluation.harness import evaluate, summarize
from hopkit.evaluation.metrics import Metric
from hopkit.evaluation.run_log import RunLog
from hopkit.knobs import Knob
from hopkit.optimize.search_space import suggest

OVER_CAP = "over_call_cap"  # the trial's user attribute: its LM calls a question when it was stopped


def calls_per_question(rows: Sequence[dict]) -> float:
    return sum(r["cost"]["lm_calls"] for r in rows) / len(rows) if rows else 0.0


def over_cap(trial: optuna.trial.BaseTrial, rows: Sequence[dict], cap: float) -> optuna.TrialPruned | None:
    """The ``optuna.TrialPruned`` to raise when the rows so far average more LM calls a question than ``cap``
    (the trial marked with its calls), else None."""
    calls = calls_per_question(rows)
    if calls <= cap:
        return None
    if isinstance(trial, optuna.Trial):
        trial.set_user_attr(OVER_CAP, round(calls, 2))
    return optuna.TrialPruned(f"{calls:.1f} LM calls a question after {len(rows)} questions, over the cap of {cap:g}")


def capped_trials(study: optuna.Study) -> list[dict]:
    """The trials the cap stopped: number, knobs and their LM calls a question."""
    return [{"number": t.number, "params": t.params, "calls": t.user_attrs[OVER_CAP]}
            for t in study.get_trials(deepcopy=False) if OVER_CAP in t.user_attrs]


def check_cap(cap: float | None) -> None:
    if cap is not None and not cap > 0:
        raise ValueError(f"the call cap (max_calls_per_question) must be above 0, got {cap:g}")


COST_OBJECTIVES = {"lm_calls": "lm_calls", "tokens": "prompt_tokens", "seconds": "seconds"}
COST_PROBE = 3  # with a call cap, a setting's cost is first checked after this many dev questions


def setting_key(params: dict[str, Any]) -> str:
    return hashlib.sha1(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()[:12]


def setting_log_name(params: dict[str, Any], demos_key: str | None = None) -> str:
    """A setting's run log, named by its trial's knobs (and demonstrations): the name, not the log's metadata, is
    what finds a setting again, since a run spec's metadata drops a knob at its profile value."""
    return f"setting-{setting_key({**params, 'demos': demos_key} if demos_key else params)}.jsonl"


@dataclass
class Objective:
    """Callable for ``study.optimize``; ``build(knobs) -> program`` applies fixed knobs and demos."""

    build: Callable[[dict[str, Any]], dspy.Module]
    space: dict[str, Knob]
    dev: Sequence[dspy.Example]
    metric: Metric
    log_dir: Path
    objectives: Sequence[str] = ("metric",)
    threads: int = 1
    slices: int = 3
    progress: bool = False
    demos_key: str | None = None  # the demonstrations' fingerprint: rows answered under other demos never mix
    max_calls_per_question: float | None = None  # a setting over it is stopped (hopkit/optimize/objective.py)
    reference: dict[str, Any] | None = None  # the paper's setting: answered in full whatever it costs
    # a setting's run metadata, as every door writes it (hopkit.spec.run_meta); None: its knobs alone
    setting_meta: Callable[[dict[str, Any]], dict] | None = None
    mechanics: frozenset[str] = frozenset()  # spec fields a resume may change (hopkit.spec.MECHANICS)

    def log_for(self, knobs: dict[str, Any]) -> RunLog:
        """The setting's own run log: every trial of the same knobs (and demonstrations) shares it."""
        base = self.setting_meta(knobs) if self.setting_meta else {"knobs": knobs}
        meta = {**base, "metric": self.metric.name, **({"demos": self.demos_key} if self.demos_key else {})}
        return RunLog(self.log_dir / setting_log_name(knobs, self.demos_key), meta, mechanics=self.mechanics)

    def finish(self, knobs: dict[str, Any]) -> list[dict]:
        """The setting's rows on all of dev, answering the questions a pruned trial never reached."""
        log = self.log_for(knobs)
        wanted = {ex.qid for ex in self.dev}
        if len(log.done_qids() & wanted) < len(wanted):
            evaluate(self.build(knobs), self.dev, [self.metric], log, threads=self.threads, progress=self.progress,
                     wait_for_writer=True)
        return [r for r in log.rows if r["qid"] in wanted]

    def __call__(self, trial: optuna.trial.BaseTrial) -> float | tuple[float, ...]:
        knobs = suggest(trial, self.space)
        program = self.build(knobs)
        log = self.log_for(knobs)
        bounds = slice_bounds(len(self.dev), self.slices if len(self.objectives) == 1 else 1)
        cap_applies = self.max_calls_per_question is not None and knobs != self.reference
        rows: list[dict] = []
        for end in sorted({*bounds, min(COST_PROBE, len(self.dev))} if cap_applies else bounds):
            report = evaluate(program, self.dev[:end], [self.metric], log, threads=self.threads, progress=self.progress,
                              wait_for_writer=True)  # a worker on the same setting: wait, then read its rows
            wanted = {ex.qid for ex in self.dev[:end]}
            rows = [r for r in log.rows if r["qid"] in wanted]
            cap = self.max_calls_per_question
            stop = over_cap(trial, rows, cap) if cap_applies and cap is not None else None
            if stop is not None:
                self._keep(trial, rows)
                raise stop
            if end not in bounds:
                continue  # the cost probe: no running metric reported, so the pruner never judges 3 questions
            if len(self.objectives) == 1 and end < len(self.dev):
                trial.report(report.metrics[self.metric.name], step=end)
                if trial.should_prune():
                    self._keep(trial, rows)
                    raise optuna.TrialPruned(f"{self.metric.name} {report.metrics[self.metric.name]:.3f} after {end}")
        report = summarize(rows, [self.metric])
        self._keep(trial, rows)
        values = []
        for name in self.objectives:
            values.append(report.metrics[self.metric.name] if name == "metric" else report.cost[COST_OBJECTIVES[name]])
        return values[0] if len(values) == 1 else tuple(values)

    def _keep(self, trial: optuna.trial.BaseTrial, rows: list[dict]) -> None:
        calls = sum(r["cost"]["lm_calls"] for r in rows)
        hits = sum(r["cost"].get("cache_hits", 0) for r in rows)
        if isinstance(trial, optuna.Trial):
            trial.set_user_attr("n", len(rows))
            trial.set_user_attr("lm_calls_per_q", calls / len(rows) if rows else 0.0)
            trial.set_user_attr("cache_hits", hits)
            trial.set_user_attr("lm_calls", calls)
            trial.set_user_attr("worker", f"{socket.gethostname()}:{os.getpid()}")


def slice_bounds(n: int, slices: int) -> list[int]:
    """Growing prefixes of dev, e.g. n=20, 3 slices -> [7, 14, 20]."""
    slices = max(1, min(slices, n))
    return sorted({max(1, round(n * i / slices)) for i in range(1, slices + 1)})
