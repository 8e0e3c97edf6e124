"""Where unfinished reproduce studies stand, read from their folders (``hopkit reproduce-table`` prints it under
the table): the tune grid's settings and how many questions each has answered, by its knobs (a shared grid answers
one group of settings after another), and the test split's rows, with the seconds a row as the rows record them.
A study is finished once its ``reproduce.json`` is written."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from hopkit.evaluation.paired import read_rows
from hopkit.evaluation.run_log import row_seconds
from hopkit.reproduce.protocol import STARTED


def unfinished(folders: list[Path]) -> list[Path]:
    """Study folders under ``folders`` (or the folders themselves) that hold a tune or test log but no
    reproduce.json yet."""
    candidates = [f for folder in folders for f in ([folder] if _is_study(folder) else sorted(folder.glob("*/")))]
    return [f for f in candidates if _is_study(f) and not (f / "reproduce.json").is_file()]


def _is_study(folder: Path) -> bool:
    return folder.is_dir() and (any(folder.glob("tune-*/settings/*.meta.json")) or any(folder.glob("test/*.jsonl")))


def progress_line(folder: Path) -> str:
    """One line: each tune grid's settings and the questions each has answered, then the test rows, each against
    the study's size where its ``started.json`` records it."""
    started_path = folder / STARTED
    started = json.loads(started_path.read_text()) if started_path.is_file() else {}
    of_tune = f" of {started['tune_n']}" if "tune_n" in started else ""
    of_test = f" of {started['test_n']}" if "test_n" in started else ""
    parts = []
    for tune in sorted(folder.glob("tune-*")):
        settings = sorted((tune / "settings").glob("*.meta.json"))  # written before a setting's first row
        logs = [meta.with_name(meta.name.removesuffix(".meta.json") + ".jsonl") for meta in settings]
        rows = [list(read_rows(log).values()) if log.is_file() else [] for log in logs]
        if rows:
            answered = [len(found) for found in rows]
            begun = [f"{_label(meta)} {count}" for meta, count in zip(settings, answered, strict=True) if count]
            waiting = f"; not started: {answered.count(0)}" if 0 in answered else ""
            parts.append(f"{tune.name}: {len(settings)} settings, {min(answered)} to {max(answered)}{of_tune} "
                         f"questions each (answered: {', '.join(begun) or 'none'}{waiting}; {_pace(rows)})")
    tests = [list(read_rows(log).values()) for log in sorted((folder / "test").glob("*.jsonl"))]
    parts.append(f"test: {sum(map(len, tests))}{of_test} questions ({_pace(tests)})" if tests else "test: not started")
    code = f" at {started['commit']}" if started.get("commit") else ""
    return f"{folder.name}, in progress{code}: " + "; ".join(parts)


def _label(meta: Path) -> str:
    """A setting by its knobs, e.g. ``answer_reader=cot k=2``."""
    knobs = json.loads(meta.read_text()).get("knobs") or {}
    return " ".join(f"{name}={value}" for name, value in sorted(knobs.items())) or meta.stem


def _pace(logs: list[list[dict]]) -> str:
    seconds = [row_seconds(row) for rows in logs for row in rows]
    if not seconds:
        return "no rows yet"
    return f"{len(seconds)} rows, median {statistics.median(seconds):.0f} s a row"
