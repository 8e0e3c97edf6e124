"""A cap on a setting's LM calls a question: a study on a CPU stops a setting that costs more than the user
will pay for, instead of answering all of dev with it.

Cost varies far more across a method's declared ranges than the metric does: on MuSiQue, ToR's paper setting
makes 12.3 LM calls a question and a setting with budget 72 and widths 10 and 9 makes 73 (about 6 minutes a
question on 2 cores). With ``--max-calls-per-question`` such a setting is stopped after a short probe (and
rechecked at every slice), kept as a pruned trial with what it answered, and marked in the study's trials.
The paper's setting is never capped: it is the reference every comparison needs. The cap judges cost only;
the pruner still judges the metric.
"""

from __future__ import annotations

from collections.abc import Sequence

import optuna

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
        raise ValueError(f"--max-calls-per-question must be above 0, got {cap:g}")
