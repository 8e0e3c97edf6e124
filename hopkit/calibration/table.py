"""Reliability of a confidence for "this passage answers the query": bins, ECE, and the F1 of the
decision f > theta at each theta of the paper's 0.1-step sweep (SearChain tuned theta by that F1).
"""

from __future__ import annotations

from dataclasses import dataclass

THETAS = tuple(round(0.1 * i, 1) for i in range(1, 10))


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    n: int
    mean_confidence: float
    share_answering: float


@dataclass(frozen=True)
class ThetaPoint:
    theta: float
    precision: float
    recall: float
    f1: float
    above: int  # pairs with f > theta


@dataclass(frozen=True)
class Calibration:
    n: int
    unscored: int
    positives: int
    bins: list[Bin]
    ece: float
    sweep: list[ThetaPoint]

    @property
    def suggested_theta(self) -> float | None:
        best = max(self.sweep, key=lambda p: (p.f1, p.theta), default=None)
        return best.theta if best is not None and best.f1 > 0 else None


def reliability_bins(scored: list[tuple[float, bool]], bins: int = 10) -> list[Bin]:
    out = []
    for i in range(bins):
        low, high = i / bins, (i + 1) / bins
        members = [(c, y) for c, y in scored if low <= c < high or (i == bins - 1 and c == 1.0)]
        if members:
            out.append(Bin(low, high, len(members), sum(c for c, _ in members) / len(members),
                           sum(y for _, y in members) / len(members)))
    return out


def expected_calibration_error(bins: list[Bin]) -> float:
    total = sum(b.n for b in bins)
    return sum(b.n / total * abs(b.mean_confidence - b.share_answering) for b in bins) if total else 0.0


def theta_sweep(scored: list[tuple[float, bool]], thetas: tuple[float, ...] = THETAS) -> list[ThetaPoint]:
    positives = sum(y for _, y in scored)
    points = []
    for theta in thetas:
        above = [y for c, y in scored if c > theta]
        hits = sum(above)
        precision = hits / len(above) if above else 0.0
        recall = hits / positives if positives else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        points.append(ThetaPoint(theta, precision, recall, f1, len(above)))
    return points


def calibrate(records: list[tuple[float | None, bool]], bins: int = 10) -> Calibration:
    """``records``: (confidence on [0, 1] or None when the reader gave none, label) per pair."""
    scored = [(min(max(c, 0.0), 1.0), bool(y)) for c, y in records if c is not None]
    table = reliability_bins(scored, bins)
    return Calibration(len(records), len(records) - len(scored), sum(y for _, y in scored), table,
                       expected_calibration_error(table), theta_sweep(scored))


def format_calibration(result: Calibration, label: str) -> str:
    lines = [f"reader calibration: {label}",
             f"{result.n} pairs, {result.positives} where the passage answers, {result.unscored} without a confidence",
             "", "| confidence | pairs | mean f | share answering |", "|---|---|---|---|"]
    lines += [f"| {b.low:.1f}-{b.high:.1f} | {b.n} | {b.mean_confidence:.3f} | {b.share_answering:.3f} |"
              for b in result.bins]
    lines += ["", f"ECE {result.ece:.3f}", "", "| theta | f > theta | precision | recall | F1 |",
              "|---|---|---|---|---|"]
    lines += [f"| {p.theta:.1f} | {p.above} | {p.precision:.3f} | {p.recall:.3f} | {p.f1:.3f} |" for p in result.sweep]
    theta = result.suggested_theta
    lines.append("")
    lines.append(f"suggested theta: {theta:.1f} (best F1 of answers / does not answer)" if theta is not None
                 else "suggested theta: none (no theta separates answering passages)")
    return "\n".join(lines)
