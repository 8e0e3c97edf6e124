"""The papers' metrics: EM, F1, cover-EM, ROUGE-L and recall of gold paragraphs at 15.

Every metric has one signature, ``metric(example, prediction, trace=None) -> float``
(DSPy's), takes the max over answer aliases, and declares whether higher is better
so an optimizer reads the direction as data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hopkit.errors import UnknownNameError
from hopkit.evaluation.normalize import answer_tokens, normalize_answer

RECALL_BUDGET = 15


def exact_match(prediction: str, gold: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(gold))


def token_f1(prediction: str, gold: str) -> float:
    pred, ref = answer_tokens(prediction), answer_tokens(gold)
    common = sum((Counter(pred) & Counter(ref)).values())
    if not pred or not ref:
        return float(pred == ref)
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def cover_exact_match(prediction: str, gold: str) -> float:
    """SearChain's cover-EM: the normalised gold answer appears inside the normalised prediction."""
    gold_norm = normalize_answer(gold)
    if not gold_norm:
        return 0.0
    return float(f" {gold_norm} " in f" {normalize_answer(prediction)} ")


def rouge_l(prediction: str, gold: str) -> float:
    """ROUGE-L F-measure over normalised tokens (longest common subsequence)."""
    pred, ref = answer_tokens(prediction), answer_tokens(gold)
    if not pred or not ref:
        return 0.0
    lcs = _lcs_length(pred, ref)
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(pred), lcs / len(ref)
    return 2 * precision * recall / (precision + recall)


def _lcs_length(a: list[str], b: list[str]) -> int:
    previous = [0] * (len(b) + 1)
    for token_a in a:
        current = [0]
        for j, token_b in enumerate(b, start=1):
            current.append(previous[j - 1] + 1 if token_a == token_b else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


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
    return recall_at(list(getattr(prediction, "retrieved", None) or getattr(prediction, "citations", [])), example.gold_pids)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in [
        Metric("em", True, _best_over_aliases(exact_match)),
        Metric("f1", True, _best_over_aliases(token_f1)),
        Metric("cover_em", True, _best_over_aliases(cover_exact_match)),
        Metric("rouge_l", True, _best_over_aliases(rouge_l)),
        Metric("recall@15", True, _recall),
    ]
}


def get_metric(name: str) -> Metric:
    if name not in METRICS:
        raise UnknownNameError("metric", name, list(METRICS))
    return METRICS[name]
