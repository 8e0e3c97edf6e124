"""A study's own settings, declared once: what ``hopkit optimize`` adds to the run spec of its dev runs.

The run spec (``hopkit.spec.RunSpec``) says what each trial runs: the method, the dev split (``dataset``, with an
optional ``[A-B]`` range), the profile, the fixed knobs, the retriever, reader, LM and task. The study
spec says how the study goes: the other splits, the demonstrations, the search, its pruning, the choice and where
the study lives. ``hopkit optimize`` builds both from its flags and study file; ``hopkit.run_optimize`` takes them
from Python, and both carry them out the same way (docs/optimizer.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hopkit.errors import InputError


@dataclass(frozen=True)
class StudySpec:
    """How a study goes, beside the run spec of its dev runs; the defaults are ``hopkit optimize``'s, and each field
    is the study-file setting or flag of the same name (``costs``: ``--objectives`` after the metric; ``name``:
    ``study``)."""

    train: str | None = None  # SPEC[A-B]: the questions demonstrations are compiled on (none: demos = "none")
    test: str | None = None  # SPEC[A-B]: scored once at the end, never seen by the study
    n_train: int = 20  # training questions the teleprompter may use
    n_dev: int = 20  # dev questions, where the run spec's dataset gives no range
    n_test: int = 20  # test questions, where the test spec gives no range
    metric: str | None = None  # the metric tuned (None: the task's, f1 where the task scores it)
    costs: tuple[str, ...] = ()  # cost objectives beside the metric (lm_calls, tokens, seconds): a Pareto front
    demos: str = "bootstrap"  # bootstrap | mipro | labeled | none
    demo_threshold: float = 1.0  # metric score a training trace needs to become a demonstration
    trials: int = 10  # distinct settings to try
    params: tuple[str, ...] | None = None  # the knobs tuned (None: every declared knob not fixed)
    max_calls_per_question: float | None = None  # stop a setting that costs more (None: no cap)
    pruner: str = "median"  # median | halving | none
    slices: int = 3  # growing dev slices a trial can be pruned after
    prune_startup: int = 3  # finished settings before the median pruner may stop a trial
    unpruned_check: bool = False  # after the study, finish every pruned trial on all of dev and compare
    choose: str = "best"  # best | guarded
    seed: int = 0
    storage: str | None = None  # optuna storage URL (None: SQLite in the study folder)
    name: str | None = None  # the study's name (None: from method, dev split, metric, demos and LM)
    out: str | None = None  # the study folder (None: runs/optimize/<name>)

    def checked(self, method: str, fixed: dict[str, Any]) -> StudySpec:
        """The study spec, or a one-line error for the first setting that cannot run, before anything loads."""
        from hopkit.evaluation.metrics import get_metric
        from hopkit.optimize.demos import TELEPROMPTERS
        from hopkit.optimize.guarded_choice import CHOICE_RULES
        from hopkit.optimize.objective import COST_OBJECTIVES, check_cap
        from hopkit.optimize.request import check_budget
        from hopkit.optimize.search_space import search_space
        from hopkit.optimize.study import make_pruner

        if self.demos not in TELEPROMPTERS:
            raise InputError(f"unknown demos {self.demos!r}; use one of {', '.join(TELEPROMPTERS)}")
        if self.choose not in CHOICE_RULES:
            raise InputError(f"unknown choice rule {self.choose!r}; use {' or '.join(CHOICE_RULES)}")
        unknown = [name for name in self.costs if name not in COST_OBJECTIVES]
        if unknown:
            raise InputError(f"unknown cost objective {unknown}; use {', '.join(COST_OBJECTIVES)}")
        if min(self.slices, self.n_train, self.n_dev, self.n_test) < 1:
            raise InputError("slices, n_train, n_dev and n_test must be at least 1")
        try:
            check_budget(self.trials, self.demos, self.demo_threshold)  # the runner's own check, as an InputError
            make_pruner(self.pruner, self.prune_startup)
            check_cap(self.max_calls_per_question)
        except ValueError as error:
            raise InputError(str(error)) from None
        if self.metric is not None:
            get_metric(self.metric)
        search_space(method, self.params, fixed)
        return self
