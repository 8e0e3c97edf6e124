"""The reproduced table in the papers' layout: methods as rows, datasets as columns, each cell the test split's
EM / F1, gold-paragraph recall at the paragraphs the method read (all of them: every method reads at most 15),
LM calls, tokens and seconds a question, the paired F1 and recall difference against OneR chosen the same way, where
the wrong answers were lost (``hopkit losses``), the paper's own number with the table it comes from, and the commit
the study ran at.

A study folder is one method on one dataset (``reproduce.json``, hopkit/reproduce/protocol.py). With several prompt
sets a cell gives their mean and standard deviation, and the difference against OneR is taken on prompt set 0.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopkit.errors import InputError
from hopkit.evaluation.paired import compare_runs, read_rows
from hopkit.lm.usage import computed_cost
from hopkit.reproduce.paper_numbers import DATASETS, dataset_key, paper_number

BASELINE = "oner"
DATASET_LABELS = {"hotpotqa": "HotpotQA", "2wiki": "2WikiMQA", "musique": "MuSiQue"}


@dataclass
class Study:
    folder: Path
    record: dict[str, Any]
    _rows: dict[int, dict[str, dict]] = field(default_factory=dict, repr=False, compare=False)  # read once a set

    @property
    def method(self) -> str:
        return self.record["method"]

    @property
    def dataset(self) -> str:
        return dataset_key(self.record["test"]) or self.record["test_dataset"]

    def rows(self, prompt_set: int = 0) -> dict[str, dict]:
        if prompt_set not in self._rows:
            self._rows[prompt_set] = read_rows(self.folder / self.record["prompt_sets"][prompt_set]["test_log"])
        return self._rows[prompt_set]

    def mean(self, metric: str) -> tuple[float, float | None]:
        values = [p["test_metrics"][metric] for p in self.record["prompt_sets"]]
        return statistics.mean(values), (statistics.stdev(values) if len(values) > 1 else None)


def read_studies(folders: list[Path]) -> list[Study]:
    """Every study under the given folders (a folder with reproduce.json, or one holding such folders)."""
    studies = []
    for folder in folders:
        records = [folder / "reproduce.json"] if (folder / "reproduce.json").is_file() else sorted(
            folder.glob("*/reproduce.json"))
        if not records:
            raise InputError(f"{folder} holds no reproduce.json: pass the folders `hopkit reproduce --out` wrote")
        studies += [Study(path.parent, json.loads(path.read_text())) for path in records]
    return studies


def reproduce_table(studies: list[Study], samples: int = 10_000) -> str:
    datasets = [d for d in DATASETS if any(s.dataset == d for s in studies)]
    datasets += sorted({s.dataset for s in studies} - set(datasets))
    methods = list(dict.fromkeys(s.method for s in sorted(studies, key=lambda s: s.method != BASELINE)))
    by_cell = {(s.method, s.dataset): s for s in studies}
    header = "| method | " + " | ".join(DATASET_LABELS.get(d, d) for d in datasets) + " |"
    lines = [header, "|---|" + "---|" * len(datasets)]
    for method in methods:
        cells = [_cell(by_cell.get((method, d)), by_cell.get((BASELINE, d)), samples) for d in datasets]
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    lines += ["", "Each cell: EM / F1 on the test split (n questions), R = gold-paragraph recall at the paragraphs "
              "read, LM calls, tokens and seconds a question as answering cost them (a cached answer counts its first "
              "computation); Δ = paired difference against OneR on the same "
              "questions [95% bootstrap interval]; lost = the step each wrong answer was lost at (hopkit losses); "
              "the paper's own number with its table and model; code = the commit the study ran at. Settings "
              "chosen on the tune split by F1. Command: `hopkit reproduce-table FOLDER ...`."]
    return "\n".join(lines)


def same_count_recall(study: Study, samples: int = 10_000) -> str | None:
    """The method's recall at the paragraphs it read against one retrieval with the question at the same count,
    paired over questions (the IRCoT paper's retrieval figure), from the test log's ``.oner-recall.json``."""
    from hopkit.evaluation.paired import paired_bootstrap

    log = study.folder / study.record["prompt_sets"][0]["test_log"]
    sidecar = log.with_suffix(".oner-recall.json")
    if not sidecar.is_file():
        return None
    oner = json.loads(sidecar.read_text())
    rows = study.rows()
    shared = [qid for qid in oner if qid in rows]
    if not shared:
        return None
    a = [oner[qid]["recall"] for qid in shared]
    b = [rows[qid]["metrics"]["recall@15"] for qid in shared]
    diff, low, high = paired_bootstrap(a, b, samples)
    read = statistics.mean(oner[qid]["read"] for qid in shared)
    return (f"R {100 * statistics.mean(b):.1f} vs one retrieval {100 * statistics.mean(a):.1f} at {read:.1f} "
            f"paragraphs: {100 * diff:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}] (n={len(shared)})")


def _cell(study: Study | None, baseline: Study | None, samples: int) -> str:
    if study is None:
        return "-"
    first = study.record["prompt_sets"][0]
    n = len(study.rows())
    em, _ = study.mean("em")
    f1, f1_sd = study.mean("f1")
    recall, _ = study.mean("recall@15")
    spread = f" ± {100 * f1_sd:.1f}" if f1_sd is not None else ""
    calls = first["test_cost"].get("lm_calls", 0.0)
    tokens = first["test_cost"].get("prompt_tokens", 0.0) + first["test_cost"].get("completion_tokens", 0.0)
    parts = [f"{100 * em:.1f} / {100 * f1:.1f}{spread} (n={n})", f"R {100 * recall:.1f}",
             f"{calls:.1f} calls, {tokens:,.0f} tok, {_seconds(study)} a question"]
    if first.get("chosen"):
        held = study.record.get("fixed") or {}
        parts.append(" ".join(f"{k}={v}" for k, v in first["chosen"].items()) + (
            f" ({', '.join(held)} held from {Path(study.record['fixed_from']).name}'s tune)" if held else ""))
    if baseline is not None and baseline is not study:
        comparison = compare_runs(baseline.rows(), study.rows(), ["f1", "recall@15"], samples)
        for d, label in zip(comparison.differences, ("ΔF1", "ΔR")):
            parts.append(f"{label} {100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}] "
                         f"(n={comparison.n})")
    same = same_count_recall(study, samples)
    if same:
        parts.append(same)
    parts.append(_lost_at(study))
    method = study.method
    if method == "ircot" and (first.get("chosen") or {}).get("answer_reader") == "direct":
        method = "ircot-direct"
    number = paper_number(method, study.dataset)
    if number is not None:
        parts.append(_beside_paper(study, number))
    parts.append(f"code {study.record.get('commit') or 'unrecorded'}")
    return "<br>".join(parts)


def _lost_at(study: Study) -> str:
    """Where the wrong answers were lost, step by step, from the test split's traces (``hopkit losses``)."""
    from hopkit.report.losses import CAUSES, losses

    counts = losses(list(study.rows().values()))
    wrong = sum(counts[cause] for cause in CAUSES)
    where = ", ".join(f"{cause} {counts[cause]}" for cause in CAUSES if counts[cause])
    return f"lost: {where} (of {wrong} wrong by EM)" if wrong else "lost: none"


def _seconds(study: Study) -> str:
    """Mean and median seconds a test question as answering it cost (an answer from the LM cache counts the seconds
    it took when it was computed, as its tokens do): the mean carries each fresh process's first few-shot prefix and
    any work that shared the cores, the median what a question costs once the prefix is cached."""
    seconds = [computed_cost(row.get("cost") or {})["seconds"] for row in study.rows().values()]
    if not seconds:
        return "- s"
    return f"{statistics.mean(seconds):.0f} s (median {statistics.median(seconds):.0f})"


METRIC_LABELS = {"em": "EM", "f1": "F1", "cover_em": "cover-EM"}


def _beside_paper(study: Study, number: Any) -> str:
    """The paper's number with hopkit's own value of the same metric beside it (SearChain reports cover-EM only,
    which the cell's EM / F1 does not show)."""
    label = METRIC_LABELS.get(number.metric, number.metric)
    ours = ""
    if all(number.metric in p["test_metrics"] for p in study.record["prompt_sets"]):
        ours = f"{label} {100 * study.mean(number.metric)[0]:.1f} here, "
    return f"{ours}paper {number.values[study.dataset]:g} {label} ({number.source}, {number.model})"
