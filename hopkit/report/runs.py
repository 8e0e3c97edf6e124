"""The run logs a report shows: each one's rows, its task (from the log's settings, else from its metrics), the
metrics that task declares, and the paragraphs its citations name."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopkit.errors import InputError
from hopkit.tasks import DEFAULT_TASK, TASKS, Task

# a log without its settings file still says its task through the metric only that task scores
_TASK_BY_METRIC = {"label_acc": "fact-check", "rouge_l": "long-form"}


@dataclass(frozen=True)
class ReportRun:
    label: str
    rows: list[dict]
    task: Task
    settings: dict[str, Any] = field(default_factory=dict)  # the log's metadata (its run spec), where it has one

    @property
    def metrics(self) -> list[str]:
        """The task's metrics the rows hold, in the task's order, then any others the rows hold."""
        present: list[str] = []
        for row in self.rows:
            present += [m for m in (row.get("metrics") or {}) if m not in present]
        return [m for m in self.task.metrics if m in present] + [m for m in present if m not in self.task.metrics]

    def status(self, row: dict) -> str:
        """correct / wrong by the task's own metric, graded where the task has no right answer, or errored."""
        if row.get("error"):
            return "errored"
        right = self.task.is_right(row.get("metrics") or {})
        return "graded" if right is None else ("correct" if right else "wrong")


def as_run(run: ReportRun | tuple[str, list[dict]]) -> ReportRun:
    if isinstance(run, ReportRun):
        return run
    label, rows = run
    return ReportRun(label, list(rows), task_from_metrics(rows))


def task_from_metrics(rows: list[dict]) -> Task:
    names = {m for row in rows for m in (row.get("metrics") or {})}
    return TASKS[next((task for metric, task in _TASK_BY_METRIC.items() if metric in names), DEFAULT_TASK)]


def load_run(path: Path, n: int | None = None) -> ReportRun:
    """A run log's final rows in log order (refused, with what a run log is, when the file is not one)."""
    from hopkit.evaluation.paired import read_rows

    rows = list(read_rows(path).values())
    rows = rows[:n] if n else rows
    meta = settings(path)
    task = TASKS.get(str(meta.get("task") or ""), None) or task_from_metrics(rows)
    return ReportRun(_unzipped(Path(path)).stem, rows, task, meta)


def setting_cells(meta: dict[str, Any]) -> dict[str, str]:
    """What a reader needs to know a run by: its method, profile, LM, retriever and the knobs it set off its
    profile's values ("-" where a log does not say)."""
    knobs = meta.get("knobs") or {}
    lm = str(meta.get("lm") or "-") + (f" @ {meta['api_base']}" if meta.get("api_base") else "")
    return {"method": str(meta.get("method") or "-"), "profile": str(meta.get("profile") or "-"), "LM": lm,
            "retriever": str(meta.get("retriever") or "-"),
            "knobs": ", ".join(f"{name}={value}" for name, value in sorted(knobs.items())) or "the profile's"}


def _unzipped(path: Path) -> Path:
    return path.with_suffix("") if path.suffix == ".gz" else path


def settings(path: Path) -> dict:
    meta = _unzipped(Path(path)).with_suffix(".meta.json")
    try:
        return json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    except (OSError, json.JSONDecodeError):
        return {}


def check_shared(runs: list[ReportRun]) -> None:
    """Every run after the first must share questions with it, as ``hopkit compare`` requires."""
    first = {row["qid"] for row in runs[0].rows}
    for run in runs[1:]:
        if not first & {row["qid"] for row in run.rows}:
            raise InputError(f"{runs[0].label} and {run.label} share no question; report runs of the same "
                             "questions (the same dataset)")


def cited_passages(paths: list[Path], dataset: str | None = None) -> tuple[dict[str, tuple[str, str]], str]:
    """pid -> (title, text) from the dataset the runs were evaluated on (``dataset`` or the first log's
    settings), and a note; an unreachable dataset leaves the pids bare and says why."""
    spec = dataset or next((named for meta in map(settings, paths)  # each log's settings read once
                            if (named := meta.get("dataset_spec") or meta.get("dataset"))), None)
    if not spec:
        return {}, "no dataset named in the logs' settings: citations show their ids (pass --dataset)"
    try:
        from hopkit.data.registry import load_dataset_spec

        corpus = load_dataset_spec(spec).corpus
    except Exception as error:  # any failure to load only costs the titles  # noqa: BLE001
        return {}, (f"titles unavailable ({spec}: {str(error).splitlines()[0][:120]}; pass --dataset with the "
                    "spec the run was evaluated on)")
    if corpus is None:
        return {}, f"{spec} brings no passages: citations show their ids"
    return {p.pid: (p.title, p.text) for p in corpus}, f"titles and paragraphs from {spec}"
