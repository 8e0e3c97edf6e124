"""A run spec carried out in one pass down: data, then retriever, reader and LM, then the program, then the harness.
Nothing here reads the command line; ``hopkit eval`` turns its flags into a ``RunSpec`` and prints what comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import dspy

from hopkit.data.examples import Dataset
from hopkit.run.parts import RunParts, open_parts
from hopkit.spec import MECHANICS, RunSpec, run_meta
from hopkit.tasks import DEFAULT_TASK


@dataclass
class BuiltRun:
    """A spec's program and the parts it was built over."""

    program: dspy.Module
    parts: RunParts
    method: str  # a saved program's own, else the spec's
    profile: str

    @property
    def demos_from(self) -> str:
        """The demonstrations as resolved ("none": zero-shot)."""
        return self.parts.demonstrations(self.method, self.profile)[1]

    def recorded(self) -> dict[str, Any]:
        """What the build decided that a run log records beside the spec."""
        return self.parts.recorded(self.method, self.profile)


def build(spec: RunSpec, dataset: Dataset | None, configure_lm: Callable[[], object] | None = None,
          api_key: str | None = None) -> BuiltRun:
    """The spec's program: the saved program it names (if any) decides method, profile, knobs and demonstrations;
    the parts are opened over the dataset (``hopkit.run.parts``), the LM before the program is built
    (demonstrations built from chains of thought ask the LM to write their queries)."""
    from hopkit.optimize.saved import read_saved

    saved = read_saved(spec.program) if spec.program is not None else None
    method, profile = (saved.method, saved.profile) if saved else (spec.method, spec.profile)
    if saved and saved.task and spec.task is None:  # the task its study answered, unless the run names another
        spec = replace(spec, task=saved.task)
    parts = open_parts(spec, dataset, [(method, profile)], demos=saved is None, configure_lm=configure_lm,
                       api_key=api_key)
    program = (parts.program(method, profile, dict(saved.knobs), saved.state) if saved
               else parts.program(method, profile))
    return BuiltRun(program, parts, method, profile)


def saved_labels(spec: RunSpec) -> tuple[str, str, dict[str, Any]] | None:
    """A saved program's own method, profile and knobs, which label its runs (None: the spec names no program)."""
    if spec.program is None:
        return None
    from hopkit.optimize.saved import read_saved

    saved = read_saved(spec.program)
    return saved.method, saved.profile, dict(saved.knobs)


def lm_in_spec(lm: Any) -> dict[str, Any]:
    """The spec's LM fields for a configured LM: a local pack by its name, a GGUF by its path, else the model string
    and the server it answers at."""
    from hopkit.lm.model_packs import PACKS

    endpoint = str(getattr(lm, "endpoint", "") or "")
    if endpoint.startswith("local:"):
        path = Path(endpoint.removeprefix("local:"))
        pack = next((name for name, p in PACKS.items() if p.filename == path.name), None)
        model = f"local:{pack or path}"
    else:
        model = str(getattr(lm, "model", "") or "unknown")
    kwargs = dict(getattr(lm, "kwargs", {}) or {})
    return {"lm": model, "api_base": kwargs.get("api_base") or None,
            "max_tokens": int(kwargs.get("max_tokens") or RunSpec.max_tokens),
            "cache": bool(getattr(lm, "answer_cache", getattr(lm, "cache", True)))}


def spec_of_program(program: Any, dataset: str, n: int | None, metrics: tuple[str, ...] | None, threads: int,
                    lm: Any) -> RunSpec | None:
    """The run spec a Python-API evaluation ran, read off the program and the configured LM, so its log carries
    what ``hopkit eval`` writes and reruns with ``--like``; None for a program hopkit did not build."""
    from hopkit.knobs.values import program_knobs
    from hopkit.programs.registry import METHODS

    method = getattr(program, "method_name", None)
    if method not in METHODS:
        return None
    profile = getattr(program, "profile", "hopkit")
    group = METHODS[method].knob_group
    knobs: dict[str, Any] = {}
    if group and getattr(program, "knobs", None) is not None:
        defaults = program_knobs(group, profile, {}, owner=method)
        knobs = {name: program.knobs[name] for name in defaults if program.knobs[name] != defaults[name]}
    retriever = getattr(program, "retriever", None)
    inner = getattr(retriever, "inner", retriever)
    backend = "colbert" if "ColBERT" in type(inner).__name__ else "bm25" if inner is not None else RunSpec.retriever
    return RunSpec(method=method, dataset=dataset, n=n, profile=profile, knobs=knobs, metrics=metrics,
                   retriever=backend, threads=threads, **lm_in_spec(lm))


@dataclass
class EvalRun:
    report: Any  # hopkit.evaluation.harness.EvalReport
    path: Path
    rows: list[dict]  # this run's questions' rows, in the log's order
    resumed: int  # questions the log held before this run
    questions: int
    title: str


def run_eval(spec: RunSpec, api_key: str | None = None, progress: bool = True,
             say: Callable[[str], None] = print, configure_lm: Callable[[], object] | None = None) -> EvalRun:
    """Evaluate the spec's program on its questions into a resumable run log: the spec checked, the questions
    loaded, the program built, then the harness. ``configure_lm``: an LM already loaded (several runs in one
    process share one model), else the spec's is made."""
    from hopkit.data.examples import pick_questions
    from hopkit.data.registry import load_dataset_spec
    from hopkit.evaluation.harness import evaluate
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    from hopkit.paths import runs_dir, slug
    from hopkit.tasks import task_metrics

    spec = spec.checked()
    dataset = load_dataset_spec(spec.dataset)
    examples = pick_questions(dataset.examples, spec.n, spec.questions)
    meta = run_meta(spec, dataset.name, saved_labels(spec))
    built = build(spec, dataset, configure_lm, api_key=api_key)
    names = list(spec.metrics) if spec.metrics else task_metrics(built.parts.task, examples)
    metrics = [get_metric(name) for name in names]
    default = runs_dir() / slug(dataset.name) / f"{slug(spec.method)}__{slug(spec.lm)}.jsonl"
    path = Path(spec.out) if spec.out else default
    log = RunLog(path, {**meta, **built.recorded()}, mechanics=MECHANICS)
    wanted = {ex.qid for ex in examples}
    resumed = len(log.done_qids() & wanted)
    if resumed:
        say(f"resuming {path}: {resumed} of {len(examples)} questions already done")
    report = evaluate(built.program, examples, metrics, log, threads=spec.threads, progress=progress)
    task = built.parts.task
    title = f"{meta['method']} {dataset.name}" + (f" ({task.name})" if task.name != DEFAULT_TASK else "")
    return EvalRun(report, path, [row for row in log.rows if row["qid"] in wanted], resumed, len(examples), title)
