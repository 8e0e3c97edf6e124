"""The flat public API's functions: datasets, retrievers by location, a local LM, evaluation, CoR.

``import hopkit`` exposes these together with the program and reader classes (see ``hopkit/__init__.py``);
everything here is a thin, typed entry point over the modules that do the work.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import dspy

    from hopkit.data.examples import Dataset
    from hopkit.evaluation.harness import EvalReport
    from hopkit.evaluation.paired import Comparison
    from hopkit.programs.tree_of_reviews import TreeOfReviews
    from hopkit.retrieval.protocol import Retriever

DEFAULT_METRICS = ("em", "f1", "cover_em", "recall@15")


def load_dataset(spec: str) -> Dataset:
    """A dataset and its corpus: ``bundled:dev``, ``ircot:FILE.jsonl``, ``ircot-demos:FILE.txt``,
    ``hotpotqa:dev@FILE`` ... (the same specs as ``hopkit eval --dataset``)."""
    from hopkit.data.registry import load_dataset_spec

    return load_dataset_spec(spec)


def ColBERTv2(location: str | Path, timeout: float = 30.0) -> Retriever:  # noqa: N802 (reads as the class)
    """A ColBERTv2 retriever: a colbert-ai index folder (built by ``hopkit index --backend colbert``) or
    the URL of a ColBERTv2 server (``hopkit serve``, or DSPy's ``/api/search`` format)."""
    if str(location).startswith(("http://", "https://")):
        from hopkit.retrieval.remote import RemoteColBERT

        return RemoteColBERT(str(location), timeout=timeout)
    from hopkit.retrieval.colbert.retriever import ColBERTRetriever

    return ColBERTRetriever(Path(location))


def local_lm(pack: str = "qwen1.5b", max_tokens: int = 512) -> dspy.LM:
    """The offline LM from a model pack (``hopkit models fetch qwen1.5b``) or a GGUF path, for ``dspy.configure``."""
    from hopkit.lm.factory import LMSpec, make_lm

    return make_lm(LMSpec(model=f"local:{pack}", max_tokens=max_tokens))


def CoR(retriever: Retriever, **knobs: Any) -> TreeOfReviews:  # noqa: N802 (reads as the class)
    """Chain of Reviews: Tree of Reviews on one path that accumulates every retrieved paragraph."""
    from hopkit.programs.tree_of_reviews import TreeOfReviews

    return TreeOfReviews(retriever, single_path=True, **knobs)


def evaluate(program: Any, dataset: Dataset | Sequence[dspy.Example], n: int | None = None,
             metrics: Sequence[str] | None = None, out: str | Path | None = None, threads: int = 1,
             progress: bool = True, meta: dict | None = None) -> EvalReport:
    """Run ``program`` on the first ``n`` questions and score them, with any ``dspy.LM``: each question's LM calls,
    tokens and retrievals are counted as ``hopkit eval`` counts them. With ``out``, every finished question is
    appended to that JSONL run log and a rerun resumes from it; its metadata is the run spec (the program's method,
    profile and knobs, the dataset, the LM), so ``hopkit eval --like OUT`` runs it again from the command line."""
    import tempfile

    import dspy

    from hopkit.data.examples import Dataset
    from hopkit.evaluation.harness import evaluate as run
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog
    from hopkit.run.eval import MECHANICS, run_meta, spec_of_program

    examples = list(dataset.examples if isinstance(dataset, Dataset) else dataset)[:n]
    names = list(metrics) if metrics else list(DEFAULT_METRICS)  # None: the multi-hop task's, as eval's default
    if out is None:
        out = Path(tempfile.mkdtemp(prefix="hopkit-eval-")) / "run.jsonl"
    if meta is None:
        name = getattr(dataset, "name", "examples")
        spec = spec_of_program(program, getattr(dataset, "spec", None) or name, n,
                               tuple(metrics) if metrics else None, threads, dspy.settings.lm)
        meta = {**run_meta(spec, name), "door": "python"} if spec else {"program": type(program).__name__}
    log = RunLog(Path(out), meta, mechanics=MECHANICS)
    return run(program, examples, [get_metric(m) for m in names], log, threads=threads, progress=progress)


def compare(run_a: str | Path | EvalReport, run_b: str | Path | EvalReport, metrics: Sequence[str] | None = None,
            samples: int = 10_000, seed: int = 0) -> Comparison:
    """``hopkit compare`` from Python: B - A over the questions both runs answered, each metric's mean difference
    with its 95% paired bootstrap interval (``.differences``), the questions where the answers differ
    (``.disagreements``), and the settings the two logs record differently (``.settings``). A run is a run log's
    path or the report ``evaluate(..., out=...)`` returned."""
    from hopkit.errors import InputError
    from hopkit.evaluation.paired import compare_runs, read_rows
    from hopkit.report.setting_diff import setting_differences

    def log(run: str | Path | EvalReport) -> Path:
        path = run if isinstance(run, str | Path) else run.path
        if path is None:
            raise InputError("this report has no run log to compare: evaluate(..., out='runs/x.jsonl') keeps one")
        return Path(path)

    a, b = log(run_a), log(run_b)
    result = compare_runs(read_rows(a), read_rows(b), list(metrics) if metrics else None, samples, seed)
    result.settings = setting_differences(a, b)
    return result
