"""Run a method and its ablation variants on the same questions, and summarize them with intervals and paired
differences against the first variant.

Each variant writes its own resumable run log (``<folder>/<variant>.jsonl``); the summary is computed from
the logs, so an interrupted ablation reruns only what is missing, and the LM cache is shared with every
other run of the same prompts. The tables and chart written from the summary are in
:mod:`hopkit.report.ablation_outputs`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import dspy

from hopkit.evaluation.harness import evaluate
from hopkit.evaluation.metrics import Metric
from hopkit.evaluation.paired import paired_bootstrap
from hopkit.evaluation.run_log import RunLog, final_rows, parse_lines
from hopkit.lm.usage import computed_cost
from hopkit.paths import check_study_folder
from hopkit.variants import Variant


@dataclass
class VariantResult:
    variant: Variant
    log: Path
    n: int
    means: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    paired: dict[str, tuple[float, float, float]]  # metric -> (diff against the first variant, low, high)
    cost: dict[str, float]
    errors: int


def variant_log(folder: Path, variant: Variant) -> Path:
    return folder / (re.sub(r"[^A-Za-z0-9_.-]+", "-", variant.name).strip("-").lower() + ".jsonl")


def check_ablation_folder(folder: Path, variants: Sequence[Variant]) -> None:
    """Refuse a folder of the user's own before anything loads: the ablation writes its table, summary and chart
    there. Its own folder holds a variant's run log."""
    check_study_folder(folder, tuple(variant_log(folder, v).name for v in variants), "an ablation's folder")


def run_ablation(variants: Sequence[Variant], build: Callable[[Variant], dspy.Module], examples: Sequence[dspy.Example],
                 metrics: Sequence[Metric], folder: Path, meta_for: Callable[[Variant], dict], threads: int = 1,
                 progress: bool = True, mechanics: frozenset[str] = frozenset()) -> list[VariantResult]:
    """Each variant answered into its own run log, whose metadata ``meta_for`` gives (the run spec, as every
    door's), labelled with the variant's name and table; a variant whose log holds every question is not run."""
    check_ablation_folder(folder, variants)
    folder.mkdir(parents=True, exist_ok=True)
    for variant in variants:
        if progress:
            print(f"== {variant.name} ({variant.method}{', ' if variant.knobs else ''}"
                  f"{', '.join(f'{k}={v}' for k, v in variant.knobs.items())})", flush=True)
        log = RunLog(variant_log(folder, variant), {**meta_for(variant), "name": variant.name, "table": variant.table},
                     mechanics=mechanics)
        if len(log.done_qids() & {ex.qid for ex in examples}) < len(examples):  # missing or failed questions
            evaluate(build(variant), examples, metrics, log, threads=threads, progress=progress)
    return summarize_ablation(variants, examples, metrics, folder)


def summarize_ablation(variants: Sequence[Variant], examples: Sequence[dspy.Example], metrics: Sequence[Metric],
                       folder: Path) -> list[VariantResult]:
    wanted = [ex.qid for ex in examples]
    rows_by_variant = []
    for variant in variants:
        path = variant_log(folder, variant)
        parsed, _ = parse_lines(path.read_text(encoding="utf-8").splitlines()) if path.is_file() else ([], False)
        by_qid = {row["qid"]: row for row in final_rows(parsed)}
        rows_by_variant.append([by_qid[q] for q in wanted if q in by_qid])
    base = {r["qid"]: r for r in rows_by_variant[0]}
    results = []
    for variant, rows in zip(variants, rows_by_variant):
        means, intervals, paired = {}, {}, {}
        for metric in metrics:
            values = [r["metrics"][metric.name] for r in rows]
            if not values:
                continue
            mean, low, high = paired_bootstrap([0.0] * len(values), values)
            means[metric.name], intervals[metric.name] = mean, (low, high)
            shared = [r for r in rows if r["qid"] in base]
            if shared and variant is not variants[0]:
                paired[metric.name] = paired_bootstrap([base[r["qid"]]["metrics"][metric.name] for r in shared],
                                                       [r["metrics"][metric.name] for r in shared])
        computed = [computed_cost(r.get("cost") or {}) for r in rows]  # a replayed row costs what computing it did
        cost = {key: sum(c[key] for c in computed) / max(len(rows), 1)
                for key in ("lm_calls", "prompt_tokens", "completion_tokens", "seconds", "uncosted_hits")}
        results.append(VariantResult(variant, variant_log(folder, variant), len(rows), means, intervals, paired, cost,
                                     sum(1 for r in rows if r.get("error"))))
    return results
