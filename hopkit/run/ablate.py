"""An ablation carried out from its run spec, as ``hopkit.run_eval`` carries out a run: the spec's method and
its variants on the spec's questions, each variant into its own resumable log, then the tables and chart.
``hopkit ablate`` turns its flags into the spec and the variants and prints what comes back; Python calls
``hopkit.run_ablation``. Nothing here reads the command line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from hopkit.evaluation.ablation import VariantResult
from hopkit.spec import RunSpec
from hopkit.variants import Variant


@dataclass
class AblationRun:
    results: list[VariantResult]  # the variants in order, the first the baseline of every paired difference
    folder: Path
    written: dict[str, Path]  # table.md, table.tex, table.csv, summary.json and the chart
    title: str

    @property
    def table(self) -> str:
        return self.written["table.md"].read_text(encoding="utf-8")


def run_ablation(spec: RunSpec, variants: Sequence[Variant] | None = None, only: Sequence[str] = (),
                 chart_metric: str = "f1", progress: bool = True, api_key: str | None = None,
                 configure_lm: Callable[[], object] | None = None) -> AblationRun:
    """Run the spec's method and its variants (default: the paper's ablations declared with the method; ``only``
    keeps those named, the full method always first) on the spec's questions into ``spec.out``, a folder (default
    runs/ablate/DATASET/METHOD__LM). The spec's knobs are set in every variant whose method has them, under the
    variant's own; every variant's knobs are checked before anything loads."""
    from hopkit.data.examples import pick_questions
    from hopkit.data.registry import load_dataset_spec
    from hopkit.evaluation.ablation import check_ablation_folder
    from hopkit.evaluation.ablation import run_ablation as answer_variants
    from hopkit.evaluation.metrics import get_metric
    from hopkit.knobs import KNOBS, check_profile
    from hopkit.paths import runs_dir, slug
    from hopkit.programs.registry import ablations, check_knobs, get_method, task_knobs
    from hopkit.report.ablation_outputs import write_outputs
    from hopkit.run.parts import open_parts
    from hopkit.spec import MECHANICS, run_meta
    from hopkit.tasks import get_task, task_metrics
    from hopkit.variants import select

    fixed = dict(spec.knobs)  # each set in the variants whose method has it, so checked there, not on spec.method
    spec = replace(replace(spec, knobs={}).checked(), knobs=fixed)
    chosen = list(variants) if variants is not None else ablations(spec.method)
    if only:
        chosen = select(chosen, ",".join(only))
    dataset = load_dataset_spec(spec.dataset)
    folder = Path(spec.out or runs_dir() / "ablate" / slug(dataset.name) / f"{slug(spec.method)}__{slug(spec.lm)}")
    check_ablation_folder(folder, chosen)  # before the retriever, reader and LM load
    task = get_task(spec.task or dataset.task)
    settings = {}
    for variant in chosen:  # every variant's knobs are checked before anything runs
        group = KNOBS.get(get_method(variant.method).knob_group or "", {})
        wanted = {**{k: v for k, v in fixed.items() if k in group}, **variant.knobs}
        check_profile(variant.profile or spec.profile)
        settings[variant.name] = check_knobs(variant.method, task_knobs(variant.method, task, wanted))
    examples = pick_questions(dataset.examples, spec.n, spec.questions)
    metrics = [get_metric(name) for name in (spec.metrics or task_metrics(task, examples))]
    base = replace(spec, out=None)
    # one retriever, reader and LM for every variant; each method and profile its own demonstrations (auto may
    # differ by method on a real dataset: hopkit/programs/demo_source.py)
    parts = open_parts(base, dataset, [(v.method, v.profile or spec.profile) for v in chosen],
                       configure_lm=configure_lm, api_key=api_key)

    def build(variant: Variant):
        return parts.program(variant.method, variant.profile or spec.profile, settings[variant.name])

    def meta_for(variant: Variant) -> dict:  # the run spec each variant ran, as eval records its own
        profile = variant.profile or spec.profile
        ran = replace(base, method=variant.method, profile=profile, knobs=settings[variant.name])
        return {**run_meta(ran, dataset.name), **parts.recorded(variant.method, profile), "fixed_knobs": fixed}

    results = answer_variants(chosen, build, examples, metrics, folder, meta_for, spec.threads, progress,
                              mechanics=MECHANICS)
    title = f"{spec.method} ablations on {dataset.name} ({task.name}; n = {len(examples)}, {parts.backend}, {spec.lm})"
    chart = chart_metric if chart_metric in [m.name for m in metrics] else metrics[0].name
    return AblationRun(results, folder, write_outputs(results, metrics, folder, title, chart), title)
