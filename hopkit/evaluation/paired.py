"""Paired comparison of two runs on the same questions: the mean difference per metric with a 95%
bootstrap interval over questions, and the questions where the runs disagree.

At n = 50 one question moves EM by 2 points, and which questions were drawn moves a gap of a few
points; pairing the runs question by question removes the second source of noise, so a claim that
one method beats another rests on this interval, not on two means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hopkit.errors import InputError


@dataclass(frozen=True)
class PairedDifference:
    metric: str
    mean_a: float
    mean_b: float
    diff: float  # mean of (b - a)
    low: float
    high: float

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0


@dataclass
class Comparison:
    n: int
    differences: list[PairedDifference]
    disagreements: list[dict] = field(default_factory=list)
    only_a: int = 0
    only_b: int = 0
    settings: list[str] = field(default_factory=list)  # what the two logs' settings record differently, A -> B


RUN_LOG = ("a run log is the JSONL file `hopkit eval --out` (or `hopkit ablate`) writes, one JSON row per finished "
           "question with its qid and metrics")


def log_text(path: Path) -> str:
    """A run log's text; a finished log kept gzipped (``LOG.jsonl.gz``, as a study's folder archives it) reads the
    same."""
    if path.suffix == ".gz":
        import gzip

        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return handle.read()
    return path.read_text(encoding="utf-8")


def read_rows(path: Path) -> dict[str, dict]:
    """A run log's rows by qid (each question's final row, as the harness reads it)."""
    from hopkit.evaluation.run_log import final_rows, parse_lines

    path = Path(path)
    if not path.is_file():
        raise InputError(f"no run log at {path}")
    if path.name.endswith(".meta.json"):
        raise InputError(f"{path} holds a run's settings, not its rows: pass {path.name[:-len('.meta.json')]}.jsonl")
    parsed, _ = parse_lines(log_text(path).splitlines())  # a torn last line is skipped
    if not parsed:
        raise InputError(f"{path} is not a run log: {RUN_LOG}")
    for line_no, row in enumerate(parsed, start=1):
        if "qid" not in row or "metrics" not in row:
            raise InputError(f"{path}: row {line_no} has no qid and metrics, so this is not a run log: {RUN_LOG}")
    return {str(row["qid"]): row for row in final_rows(parsed)}


def paired_bootstrap(a: list[float], b: list[float], samples: int = 10_000, seed: int = 0,
                     level: float = 0.95) -> tuple[float, float, float]:
    """Mean of b - a and its percentile bootstrap interval, resampling questions with replacement."""
    return stratified_paired_bootstrap([(a, b)], samples, seed, level)


def stratified_paired_bootstrap(groups: list[tuple[list[float], list[float]]], samples: int = 10_000, seed: int = 0,
                                level: float = 0.95) -> tuple[float, float, float]:
    """Mean of b - a over every group's questions pooled, and its percentile bootstrap interval, resampling
    questions within each group so that each keeps its size (a pool of fixed halves, such as several studies' test
    halves, varies by which questions were drawn, not by how many each group gives)."""
    groups = [(a, b) for a, b in groups if len(a)]  # a study with no shared question adds nothing
    if not groups:
        raise InputError("the two runs share no question")
    rng = np.random.default_rng(seed)
    total, sums, point = 0, np.zeros(samples), 0.0
    for a, b in groups:
        deltas = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
        sums += deltas[rng.integers(0, deltas.size, size=(samples, deltas.size))].sum(axis=1)
        total, point = total + deltas.size, point + float(deltas.sum())
    tail = (1 - level) / 2
    return point / total, float(np.quantile(sums / total, tail)), float(np.quantile(sums / total, 1 - tail))


def compare_runs(rows_a: dict[str, dict], rows_b: dict[str, dict], metrics: list[str] | None = None,
                 samples: int = 10_000, seed: int = 0, level: float = 0.95) -> Comparison:
    shared = [qid for qid in rows_a if qid in rows_b]
    if not shared:
        raise InputError("the two runs share no question; compare logs of the same dataset")
    names = metrics or [m for m in rows_a[shared[0]]["metrics"] if m in rows_b[shared[0]]["metrics"]]
    differences = []
    for name in names:
        missing = [qid for qid in shared if name not in rows_a[qid]["metrics"] or name not in rows_b[qid]["metrics"]]
        if missing:
            raise InputError(f"metric {name!r} is missing from question {missing[0]} in one of the runs")
        a = [rows_a[qid]["metrics"][name] for qid in shared]
        b = [rows_b[qid]["metrics"][name] for qid in shared]
        diff, low, high = paired_bootstrap(a, b, samples, seed, level)
        differences.append(PairedDifference(name, float(np.mean(a)), float(np.mean(b)), diff, low, high))
    judged = [n for n in ("em", "f1") if n in names] or names[:1]  # the last one says which run did better
    disagreements = []
    for qid in shared:
        ma, mb = rows_a[qid]["metrics"], rows_b[qid]["metrics"]
        if any(ma[n] != mb[n] for n in judged):
            disagreements.append({"qid": qid, "question": rows_a[qid].get("question", ""),
                                  "answers": rows_a[qid].get("answers", []),
                                  "a": (rows_a[qid].get("prediction") or {}).get("answer", ""),
                                  "b": (rows_b[qid].get("prediction") or {}).get("answer", ""), "lead": judged[-1],
                                  **{f"{n}_a": ma[n] for n in judged}, **{f"{n}_b": mb[n] for n in judged}})
    return Comparison(len(shared), differences, disagreements, len(rows_a) - len(shared), len(rows_b) - len(shared))


def split_by_form(rows_a: dict[str, dict], rows_b: dict[str, dict]) -> dict[str, tuple[dict, dict]]:
    """The shared questions grouped by answer form (yes/no, either-or, open), as pairs of row dicts."""
    from hopkit.text.question_form import FORMS, question_form

    groups: dict[str, tuple[dict, dict]] = {form: ({}, {}) for form in FORMS}
    for qid, row in rows_a.items():
        if qid in rows_b:
            a, b = groups[question_form(str(row.get("question", "")))]
            a[qid], b[qid] = row, rows_b[qid]
    return {form: pair for form, pair in groups.items() if pair[0]}


def format_form_split(rows_a: dict[str, dict], rows_b: dict[str, dict], metric: str = "f1",
                      samples: int = 10_000, seed: int = 0) -> str:
    lines = ["", f"{metric} by question form:", "| form | n | A | B | B - A | 95% CI |", "|---|---|---|---|---|---|"]
    for form, (a, b) in split_by_form(rows_a, rows_b).items():
        d = compare_runs(a, b, [metric], samples, seed).differences[0]
        mark = " *" if d.significant else ""
        lines.append(f"| {form} | {len(a)} | {100 * d.mean_a:.1f} | {100 * d.mean_b:.1f} | {100 * d.diff:+.1f}{mark} | "
                     f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}] |")
    lines.append("(* the interval excludes 0)")
    return "\n".join(lines)


def format_comparison(result: Comparison, label_a: str, label_b: str, show: int = 50,
                      settings: str | None = None) -> str:
    """The paired table and the questions the runs disagree on; ``settings``, a line naming what the two runs
    differ in (hopkit.report.setting_diff), goes under the header, since it says what the difference measures."""
    lines = [f"A = {label_a}", f"B = {label_b}",
             f"{result.n} shared questions" + (f" ({result.only_a} only in A, {result.only_b} only in B)"
                                               if result.only_a or result.only_b else ""),
             *([settings] if settings else []),
             "", "| metric | A | B | B - A | 95% CI (paired bootstrap) |", "|---|---|---|---|---|"]
    for d in result.differences:
        mark = " *" if d.significant else ""
        lines.append(f"| {d.metric} | {100 * d.mean_a:.1f} | {100 * d.mean_b:.1f} | {100 * d.diff:+.1f}{mark} | "
                     f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}] |")
    lines.append("(* the interval excludes 0)")
    if result.disagreements:
        b_wins = sum(1 for r in result.disagreements if _lead(r, "b") > _lead(r, "a"))
        a_wins = sum(1 for r in result.disagreements if _lead(r, "a") > _lead(r, "b"))
        lines += ["", f"{len(result.disagreements)} questions where the runs disagree (B better on {b_wins}, "
                      f"A better on {a_wins} by {result.disagreements[0]['lead']}):"]
        for row in result.disagreements[:show]:
            scores = "  ".join(f"{k}={v:.2f}" for k, v in row.items() if k.endswith(("_a", "_b")))
            lines.append(f"- {row['qid']}: {row['question'][:90]}\n    gold {row['answers'][:3]} | "
                         f"A: {str(row['a'])[:60]!r} | B: {str(row['b'])[:60]!r} | {scores}")
        if len(result.disagreements) > show > 0:  # show = 0: the count alone, the caller says where to list them
            lines.append(f"... and {len(result.disagreements) - show} more (--show N)")
    return "\n".join(lines)


def _lead(row: dict, side: str) -> float:
    return row[f"{row['lead']}_{side}"]
