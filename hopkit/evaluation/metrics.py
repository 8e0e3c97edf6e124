"""The papers' metrics: EM, F1, cover-EM, ROUGE-L and recall of gold paragraphs at 15.

Every metric has one signature, ``metric(example, prediction, trace=None) -> float``
(DSPy's), takes the max over answer aliases, and declares whether higher is better
so an optimizer reads the direction as data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hopkit.errors import UnknownNameError
from hopkit.text.labels import claim_label
from hopkit.text.normalize import covers, normalize_answer
from hopkit.text.similarity import rouge_l, token_f1

RECALL_BUDGET = 15


def exact_match(prediction: str, gold: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(gold))


def cover_exact_match(prediction: str, gold: str) -> float:
    """SearChain's cover-EM: the normalised gold answer appears inside the normalised prediction."""
    return float(covers(prediction, gold))


def label_match(prediction: str, gold: str) -> float:
    """A claim's label (SUPPORTS / REFUTES) read by words on both sides; no label is wrong."""
    predicted = claim_label(prediction)
    return float(predicted is not None and predicted == claim_label(gold))


def recall_at(ranked_pids: list[str], gold_pids: list[str], budget: int = RECALL_BUDGET) -> float:
    """Fraction of gold paragraphs among the first ``budget`` retrieved (IRCoT's recall@15)."""
    if not gold_pids:
        return 0.0
    kept = set(ranked_pids[:budget])
    return sum(pid in kept for pid in set(gold_pids)) / len(set(gold_pids))


@dataclass(frozen=True)
class Metric:
    """A named metric with its direction; callable with DSPy's metric signature."""

    name: str
    higher_is_better: bool
    score: Callable[[Any, Any], float]

    def __call__(self, example: Any, prediction: Any, trace: Any = None) -> float:
        return self.score(example, prediction)


def _best_over_aliases(fn: Callable[[str, str], float]) -> Callable[[Any, Any], float]:
    def score(example: Any, prediction: Any) -> float:
        answer = str(getattr(prediction, "answer", "") or "")
        return max((fn(answer, gold) for gold in example.answers), default=0.0)

    return score


def _recall(example: Any, prediction: Any) -> float:
    return recall_at(list(getattr(prediction, "retrieved", None) or getattr(prediction, "citations", [])),
                     example.gold_pids)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in [
        Metric("em", True, _best_over_aliases(exact_match)),
        Metric("f1", True, _best_over_aliases(token_f1)),
        Metric("cover_em", True, _best_over_aliases(cover_exact_match)),
        Metric("rouge_l", True, _best_over_aliases(rouge_l)),
        Metric("label_acc", True, _best_over_aliases(label_match)),
        Metric("recall@15", True, _recall),
    ]
}


def get_metric(name: str) -> Metric:
    if name not in METRICS:
        raise UnknownNameError("metric", name, list(METRICS))
    return METRICS[name]
