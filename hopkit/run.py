"""A run spec carried out in one pass down: data, then retriever, reader and LM, then the program, then the harness.
Nothing here reads the command line; ``hopkit eval`` turns its flags into a ``RunSpec`` and prints what comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dspy

from hopkit.data.examples import Dataset
from hopkit.errors import InputError
from hopkit.spec import RunSpec

# a run's mechanics, not its settings: a log resumes under other values of these
MECHANICS = ("threads", "out")


@dataclass
class BuiltRun:
    program: dspy.Module
    corpus: Any  # what the program's citations point into
    demos_from: str  # the demonstrations as resolved ("none": zero-shot)
    retriever: str  # the backend, after ``auto`` chose one
    retriever_choice: str | None  # what ``auto`` measured to choose it


def build(spec: RunSpec, dataset: Dataset | None, configure_lm: Callable[[], object] | None = None,
          api_key: str | None = None) -> BuiltRun:
    """The spec's program over its retriever and reader. Every input is checked before anything loads; the LM is
    configured before the program is built (demonstrations built from chains of thought ask the LM to write their
    queries)."""
    from hopkit.evaluation.retriever_choice import open_dataset_retriever
    from hopkit.lm.factory import use_lm
    from hopkit.programs.demo_source import load_demonstrations, resolve_demos_from
    from hopkit.programs.registry import build_program, check_knobs, get_method
    from hopkit.reader.loading import open_reader
    from hopkit.tasks import apply_task, get_task, task_knobs

    configure = configure_lm or (lambda: use_lm(spec.lm_spec(api_key)))
    task = get_task(spec.task or (dataset.task if dataset is not None else "multihop-qa"))
    method_name = spec.method
    if spec.program is not None:  # the saved program decides the method; its knobs and demos come with it
        from hopkit.optimize.saved import read_manifest

        method_name = read_manifest(Path(spec.program))["method"]
        if spec.knobs or spec.profile != "hopkit":
            raise InputError("--set and --profile cannot change a saved program's knobs (it records its own); "
                             "optimize again, or drop --program")
    method = get_method(method_name)
    knobs = check_knobs(method_name, task_knobs(method_name, task, dict(spec.knobs)))
    retriever, backend, choice = (open_dataset_retriever(spec.retriever, Path(spec.index) if spec.index else None,
                                                         spec.plaid, dataset)
                                  if method.needs_retriever else (None, spec.retriever, None))
    reader = open_reader(spec.reader) if method.needs_reader else None
    corpus = getattr(retriever.inner, "corpus", None) if retriever is not None else None
    corpus = corpus or (dataset.corpus if dataset else None)
    if spec.program is not None:
        from hopkit.optimize.saved import load_program

        configure()
        program = apply_task(load_program(Path(spec.program), retriever=retriever, reader=reader), task)
        return BuiltRun(program, corpus, "the saved program's", backend, choice)
    dataset_name = dataset.name if dataset else None
    if method.uses_demos:
        train, demos_from = load_demonstrations(spec.demos_from, dataset_name, method_name, spec.profile)
    else:
        train, demos_from = None, resolve_demos_from(spec.demos_from, dataset_name, method_name, spec.profile) or "none"
    configure()
    program = apply_task(build_program(method_name, retriever=retriever, reader=reader, train=train,
                                       profile=spec.profile, **knobs), task)
    return BuiltRun(program, corpus, demos_from, backend, choice)


def run_meta(spec: RunSpec, dataset_name: str, built: BuiltRun | None = None) -> dict:
    """A run log's metadata: the settings a resume must match, with the spec itself (``hopkit eval --like``)."""
    from hopkit.programs.registry import get_method

    meta = {"method": spec.method, "dataset": dataset_name, "dataset_spec": spec.dataset, "lm": spec.lm,
            "api_base": spec.api_base, "knobs": dict(spec.knobs), "profile": spec.profile,
            "retriever": built.retriever if built else spec.retriever, "max_tokens": spec.max_tokens,
            "spec": {k: v for k, v in spec.to_dict().items() if k not in MECHANICS}}
    if built and built.retriever_choice:
        meta["retriever_choice"] = built.retriever_choice
    if spec.program is not None:
        meta["program"] = str(Path(spec.program).resolve())
    if built and get_method(spec.method).uses_demos:
        meta["demos_from"] = built.demos_from
    return meta


@dataclass
class EvalRun:
    report: Any  # hopkit.evaluation.harness.EvalReport
    path: Path
    rows: list[dict]  # this run's questions' rows, in the log's order
    resumed: int  # questions the log held before this run
    questions: int
    title: str


def run_eval(spec: RunSpec, api_key: str | None = None, progress: bool = True,
             say: Callable[[str], None] = print) -> EvalRun:
    """Evaluate the spec's program on its questions into a resumable run log."""
    from hopkit.data.examples import pick_questions
    from hopkit.data.registry import load_dataset_spec
    from hopkit.evaluation.harness import evaluate
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    from hopkit.paths import runs_dir, slug
    from hopkit.tasks import get_task, task_metrics

    spec = spec.checked()
    dataset = load_dataset_spec(spec.dataset)
    examples = pick_questions(dataset.examples, spec.n, spec.questions)
    built = build(spec, dataset, api_key=api_key)
    task = get_task(spec.task or dataset.task)
    names = list(spec.metrics) if spec.metrics else task_metrics(task, examples)
    metrics = [get_metric(name) for name in names]
    path = Path(spec.out) if spec.out else runs_dir() / slug(dataset.name) / f"{slug(spec.method)}__{slug(spec.lm)}.jsonl"
    meta = run_meta(spec, dataset.name, built)
    if task.name != "multihop-qa":  # the task the run answered, the dataset's when the spec names none
        meta["task"] = task.name
    log = RunLog(path, meta)
    wanted = {ex.qid for ex in examples}
    resumed = len(log.done_qids() & wanted)
    if resumed:
        say(f"resuming {path}: {resumed} of {len(examples)} questions already done")
    report = evaluate(built.program, examples, metrics, log, threads=spec.threads, progress=progress)
    title = f"{spec.method} {dataset.name}" + (f" ({task.name})" if task.name != "multihop-qa" else "")
    return EvalRun(report, path, [row for row in log.rows if row["qid"] in wanted], resumed, len(examples), title)
