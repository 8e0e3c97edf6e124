"""A choice that keeps the paper's setting unless the study's best beats it on dev beyond selection noise.

A study takes the highest dev score of many settings. With 50 dev questions the top of several noisy
estimates sits above its setting's true value (the winner's curse), so a best that leads trial 0 by a
95% paired interval can still lose on held-out questions. This rule corrects the paired dev interval
for the number of settings the best was picked from (Bonferroni: each of the m other settings was a
comparison with trial 0, so each gets 5%/m of the error), and keeps trial 0 unless that corrected
interval lies above zero. It is a rule about selection, not about any dataset or method.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

CHOICE_RULES = ("best", "guarded")  # best: the top dev score, as optuna takes it
FAMILY_ERROR = 0.05  # the chance, over all comparisons with trial 0, that the rule takes a setting no better


@dataclass(frozen=True)
class GuardedChoice:
    comparisons: int  # settings other than trial 0 that the best was chosen from
    level: float  # the corrected interval's coverage
    diff: float  # best - trial 0 on dev, mean over the paired questions
    low: float
    high: float

    @property
    def takes_best(self) -> bool:
        return self.low > 0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "takes_best": self.takes_best}


def guarded_choice(default_scores: list[float], best_scores: list[float], settings: int,
                   higher_is_better: bool = True) -> GuardedChoice:
    """``default_scores`` and ``best_scores`` are per-question dev scores in the same question order;
    ``settings`` counts every distinct setting the study tried, trial 0's included."""
    if len(default_scores) != len(best_scores) or not default_scores:
        raise ValueError("the guarded choice needs both settings' scores on the same, non-empty dev questions")
    if settings < 1:
        raise ValueError(f"a study tries at least one setting, got {settings}")
    from hopkit.evaluation.paired import paired_bootstrap  # numpy: the CLI reads CHOICE_RULES without it

    comparisons = max(1, settings - 1)
    level = 1 - FAMILY_ERROR / comparisons
    a, b = (default_scores, best_scores) if higher_is_better else (best_scores, default_scores)
    diff, low, high = paired_bootstrap(a, b, level=level)
    return GuardedChoice(comparisons, level, diff, low, high)


def guarded_choice_of_rows(default_rows: Iterable[dict], best_rows: Iterable[dict], metric: str, settings: int,
                           higher_is_better: bool = True) -> GuardedChoice:
    """The guarded choice from two run logs' rows (``qid`` and ``metrics``), paired by question."""
    default = {str(row["qid"]): row["metrics"][metric] for row in default_rows}
    best = {str(row["qid"]): row["metrics"][metric] for row in best_rows}
    shared = [qid for qid in default if qid in best]
    return guarded_choice([default[q] for q in shared], [best[q] for q in shared], settings, higher_is_better)
