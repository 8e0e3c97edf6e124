"""``hopkit report STUDY``'s table of every setting a study tried on dev: each against the paper's setting on the
questions both answered, with its cost, whether the pruner or the LM-call cap stopped it, from the setting logs (or,
while the study still tunes, from its SQLite storage)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopkit.evaluation.paired import read_rows
from hopkit.lm.usage import computed_cost
from hopkit.optimize.objective import setting_log_name
from hopkit.optimize.study import setting_logs
from hopkit.optimize.summary import progress_on_test, study_log


@dataclass(frozen=True)
class SettingRow:
    knobs: dict[str, Any]
    questions: int
    metric: float  # mean over the questions this setting answered
    paper_same: float | None  # the paper's setting's mean over those questions; None without its log
    differ: int | None  # of those questions, how many answers differ from the paper's setting's
    calls: float  # LM calls a question
    seconds: float  # seconds a question, as computed
    is_paper: bool
    over_cap: bool = False  # stopped by --max-calls-per-question, not by the pruner


def _answer(row: dict) -> str:
    return " ".join(str((row.get("prediction") or {}).get("answer", "")).lower().split())


def _row_score(row: dict, metric: str) -> float:
    return float((row.get("metrics") or {}).get(metric, 0.0) or 0.0)


def _answered(folder: Path) -> list[tuple[dict[str, Any], Path]]:
    """(meta, dev log) of each setting that has answered at least one question."""
    return [(meta, log) for meta, log in setting_logs(Path(folder) / "settings") if log.is_file()
            and log.stat().st_size]


def setting_rows(folder: Path, paper_knobs: dict[str, Any] | None, metric: str,
                 capped: Sequence[dict[str, Any]] = ()) -> list[SettingRow]:
    """One row a setting: the paper's first, then the others by how far they got before pruning, then by metric.
    ``capped``: the knobs of the settings the LM-call cap stopped."""
    answered = _answered(folder)
    logs = [(meta["knobs"], read_rows(log)) for meta, log in answered]
    # a capped setting is found by its log's name: its metadata drops a knob at its profile value
    demos = {meta.get("demos") for meta, _ in answered}
    capped_logs = {setting_log_name(knobs, key) for knobs in capped for key in demos}
    over_cap = [log.name in capped_logs for _, log in answered]
    paper = next((rows for knobs, rows in logs if paper_knobs is not None and knobs == paper_knobs), None) or {}
    table = []
    for (knobs, rows), stopped in zip(logs, over_cap):
        n = len(rows)
        shared = [qid for qid in rows if qid in paper]
        table.append(SettingRow(
            knobs=knobs, questions=n, metric=sum(_row_score(r, metric) for r in rows.values()) / n,
            paper_same=sum(_row_score(paper[q], metric) for q in shared) / len(shared) if shared else None,
            differ=sum(_answer(rows[q]) != _answer(paper[q]) for q in shared) if shared else None,
            calls=sum(computed_cost(r.get("cost") or {})["lm_calls"] for r in rows.values()) / n,
            seconds=sum(computed_cost(r.get("cost") or {})["seconds"] for r in rows.values()) / n,
            is_paper=paper_knobs is not None and knobs == paper_knobs, over_cap=stopped))
    return sorted(table, key=lambda row: (not row.is_paper, -row.questions, -row.metric))  # furthest first


def paper_knobs_of(summary: dict[str, Any], folder: Path) -> dict[str, Any] | None:
    """The paper's setting's knobs, from the meta beside the dev log the summary names for it."""

    log = study_log(summary, "dev_default", folder)
    meta = None if log is None else log.with_name(log.name[:-len(".jsonl")] + ".meta.json")
    return json.loads(meta.read_text(encoding="utf-8"))["knobs"] if meta is not None and meta.is_file() else None


def study_settings_table(summary: dict[str, Any], folder: Path) -> str | None:
    """``hopkit report STUDY_DIR``'s table of every setting tried on dev; None for a folder without setting logs."""
    capped = [t["params"] for t in (summary.get("call_cap") or {}).get("stopped", [])]
    rows = setting_rows(folder, paper_knobs_of(summary, folder), summary["metric"], capped)
    if not rows:
        return None
    return (f"every setting tried on dev ({summary['metric']} x 100 over the questions each answered; a pruned "
            "setting answered fewer; calls and seconds a question as computed):\n"
            + settings_table(rows, summary["metric"]))


def running_study_table(folder: Path) -> str | None:
    """A study still tuning (no summary.json yet): the settings so far, the paper's knobs read from the folder's
    own SQLite storage when it has one (trial 0 is queued with them). None for a folder without setting logs."""
    folder = Path(folder)
    answered = _answered(folder)
    if not answered:
        return None
    metric = answered[0][0].get("metric", "f1")

    knobs, capped = _paper_and_capped_in_storage(folder / "study.db")
    test = progress_on_test(folder, metric)
    return (f"{folder.name}: no summary.json yet, so the study is still tuning (or was stopped); the settings its dev "
            f"logs hold so far ({metric} x 100 over the questions each answered"
            + ("" if knobs is not None else "; no study.db here to name the paper's setting") + "):\n"
            + settings_table(setting_rows(folder, knobs, metric, capped), metric)
            + ("" if test is None else "\n" + test))


def _paper_and_capped_in_storage(db: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The paper's knobs (None without a storage) and the knobs of the settings the LM-call cap stopped."""
    if not db.is_file():
        return None, []
    import optuna

    from hopkit.optimize.objective import capped_trials

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = f"sqlite:///{db}"
    paper, capped = None, []
    for summary in optuna.get_all_study_summaries(storage):
        study = optuna.load_study(study_name=summary.study_name, storage=storage)
        capped += [t["params"] for t in capped_trials(study)]
        for trial in study.get_trials(deepcopy=False):
            knobs = trial.params or trial.system_attrs.get("fixed_params")  # enqueued, not yet sampled
            if paper is None and trial.user_attrs.get("paper_defaults") and knobs:
                paper = dict(knobs)
    return paper, capped


def settings_table(rows: list[SettingRow], metric: str) -> str:
    """The rows as a markdown table, knobs as columns; the metric x 100."""
    names = sorted({name for row in rows for name in row.knobs})
    lines = ["| setting | " + " | ".join(names) + f" | questions | {metric} | paper's, same questions | "
             "answers that differ | LM calls/q | s/q |", "|" + "---|" * (len(names) + 7)]
    for row in rows:
        knobs = " | ".join(_knob(row.knobs.get(name)) for name in names)
        same = "-" if row.paper_same is None else f"{100 * row.paper_same:.1f}"
        differ = "-" if row.differ is None else str(row.differ)
        label = "paper" if row.is_paper else "over the call cap" if row.over_cap else "tried"
        lines.append(f"| {label} | {knobs} | {row.questions} | {100 * row.metric:.1f} | "
                     f"{same} | {differ} | {row.calls:.2f} | {row.seconds:.0f} |")
    return "\n".join(lines)


def _knob(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return "-" if value is None else str(value)
