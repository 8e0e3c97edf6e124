"""A pure answer step replayed on a finished run log (``hopkit replay LOG --step date_comparison --out NEW``).

A step that reads only what the method already wrote and makes no LM call (the date comparison) gives, applied to a
log's rows, exactly the answers the method gives with its knob on. The new log pairs with the old one question by
question (``hopkit compare OLD NEW``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import dspy

from hopkit.errors import InputError
from hopkit.programs.registry import views_of


def reasoning_of(trace: dict) -> str:
    """The reasoning text the method hands its answer steps, read by the method's own views."""
    return views_of(trace).reasoning(trace)


def _date_comparison() -> Callable:
    from hopkit.additions.date_comparison import DateComparison

    return DateComparison()


PURE_STEPS: dict[str, Callable[[], Callable]] = {"date_comparison": _date_comparison}


def rescored(row: dict, answer: str) -> dict:
    """The row's metrics with its answer replaced (a metric the harness does not define keeps its value)."""
    from hopkit.evaluation.metrics import METRICS

    example = dspy.Example(answers=row["answers"], gold_pids=row.get("gold_pids") or [])
    prediction = dspy.Prediction(answer=answer, retrieved=row["prediction"].get("retrieved") or [])
    return {name: METRICS[name](example, prediction) if name in METRICS else value
            for name, value in row["metrics"].items()}


def replay(rows: list[dict], step_name: str) -> tuple[list[dict], dict[str, int]]:
    """The rows with the step applied where it acts, and counts of what it did."""
    if step_name not in PURE_STEPS:
        raise InputError(f"{step_name!r} is not a step that can be replayed without an LM; replay one of "
                         f"{', '.join(PURE_STEPS)}")
    step = PURE_STEPS[step_name]()
    counts = {"questions": len(rows), "read": 0, "changed": 0, "wrong_to_right": 0, "right_to_wrong": 0}
    out = []
    for row in rows:
        trace = row.get("trace") or {}
        if row.get("error") or not trace or trace.get("profile") == "paper":
            out.append(row)  # an errored row has nothing to read; the paper profile has every addition off
            continue
        before = (row.get("prediction") or {}).get("answer") or ""
        answer, record = step(row["question"], before, reasoning_of(trace))
        if record is None:
            out.append(row)
            continue
        counts["read"] += 1
        metrics = rescored(row, answer)
        if answer != before:
            counts["changed"] += 1
            counts["wrong_to_right"] += metrics.get("em", 0) > row["metrics"].get("em", 0)
            counts["right_to_wrong"] += metrics.get("em", 0) < row["metrics"].get("em", 0)
        out.append({**row, "prediction": {**row["prediction"], "answer": answer}, "metrics": metrics,
                    "trace": {**trace, step_name: record}})
    return out, counts


def write_replayed(source: Path, rows: list[dict], out: Path, step_name: str) -> None:
    if out.resolve() == source.resolve():
        raise InputError(f"--out {out} is the log being replayed: write the replay beside it")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    meta = source.with_suffix(".meta.json")
    if meta.exists():
        out.with_suffix(".meta.json").write_text(
            json.dumps({**json.loads(meta.read_text()), "replayed": step_name}, indent=2))
