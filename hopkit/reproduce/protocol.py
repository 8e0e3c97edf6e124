"""``hopkit reproduce``: a method as its paper ran it. Tune on the paper's grid on a tune split (optuna's
GridSampler through the optimizer, hopkit/optimize/runner.py), pick by the tune split's F1, score the chosen setting
once on a test split that shares no question with it, and record both in the study folder's ``reproduce.json``.

Every setting runs the ``paper`` profile (every hopkit addition off) with the paper's few-shot demonstrations.
``prompt_sets`` > 1 repeats the protocol with other samples of the demonstrations, as the IRCoT paper averages
three; each set has its own tune study and test log.
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from hopkit.data.examples import Dataset
from hopkit.errors import InputError
from hopkit.evaluation.harness import evaluate
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.run_log import RunLog
from hopkit.knobs.knob import Profile
from hopkit.optimize.splits import load_splits
from hopkit.paths import check_study_folder
from hopkit.programs.registry import ProgramParts, get_method
from hopkit.reproduce.grids import paper_grid
from hopkit.spec import MECHANICS, RunSpec, run_meta

TEST_METRICS = ("em", "f1", "cover_em", "recall@15")
PROFILE: Profile = "paper"


@dataclass(frozen=True)
class ReproduceRequest:
    method: str
    test: str  # a dataset spec with an optional question range, SPEC[A-B] (hopkit/optimize/splits.py)
    folder: Path
    tune: str | None = None  # needed where the paper tunes (a grid); refused to overlap test
    wide: bool = False  # IRCoT: M in {1, 2, 3} too
    pruner: str = "none"  # the paper tries every grid point; median or halving stop hopeless ones early
    metric: str = "f1"  # what the tune split picks by
    prompt_sets: int = 1
    threads: int = 1
    progress: bool = True
    record: dict[str, Any] = field(default_factory=dict)  # what the caller ran on (LM, retriever, demonstrations)
    # grid knobs held at a value chosen elsewhere: IRCoT picks its reader once per model, on the first dataset's tune
    # split, and holds it for the others (``fixed_from`` names that study)
    fixed: dict[str, Any] = field(default_factory=dict)
    fixed_from: str | None = None
    # the run spec of the study's runs as the command gave it (LM, retriever, reader, demonstrations): every tune
    # setting's log and the test log record it with their split and knobs, as eval records a run, so that
    # ``hopkit eval --like LOG`` reruns a setting (None: the knobs alone)
    run_spec: RunSpec | None = None


@dataclass
class PromptSetResult:
    prompt_set: int
    chosen: dict[str, Any]
    tune_score: float | None
    test_log: str  # relative to the study folder
    test_metrics: dict[str, float]
    test_cost: dict[str, float]
    tune_settings: dict[str, float] = field(default_factory=dict)  # setting -> tune score


STARTED = "started.json"
STUDY_MARKERS = (STARTED, "reproduce.json")  # what marks a folder as a reproduce study's (started, or finished)


def check_study_place(folder: Path) -> None:
    """Refuse a ``--out`` folder of the user's own before anything loads (a study writes its record into it)."""
    check_study_folder(folder, STUDY_MARKERS, "a reproduce study's folder")


def reproduce(request: ReproduceRequest, load: Callable[[str], Dataset], retriever_for: Callable[[Dataset], Any],
              reader: Any, train: Dataset | None, say: Callable[[str], None] = print) -> list[PromptSetResult]:
    """Run the protocol; ``retriever_for`` opens the retriever over a split's corpus (the tune and test sets may
    have their own corpora), ``train`` gives the demonstrations (None: zero-shot, recorded)."""
    check_study_place(request.folder)
    method = get_method(request.method)
    grid = held_grid(paper_grid(request.method, request.wide), request.fixed, request.method)
    if grid and not request.tune:
        raise InputError(f"{request.method} tunes {', '.join(grid)} on a tune split as its paper does: give a tune "
                         "split (SPEC[A-B])")
    if request.prompt_sets < 1:
        raise InputError("prompt_sets must be at least 1")
    if request.prompt_sets > 1 and (train is None or not method.uses_demos):
        raise InputError("prompt_sets samples demonstration sets: the method needs demonstrations (demos_from)")
    if request.tune:
        _, tune_data, picked = load_splits(None, request.tune, request.test, load)
        test_data = load(_spec_of(request.test))
    else:  # the paper's fixed setting: the test split alone (loaded as the only split, so nothing overlaps)
        _, test_data, only = load_splits(None, request.test, None, load)
        tune_data, picked = test_data, {"dev": [], "test": only["dev"]}
    tune_retriever = retriever_for(tune_data) if grid and method.needs_retriever else None
    test_retriever = retriever_for(test_data) if method.needs_retriever else None
    request.folder.mkdir(parents=True, exist_ok=True)
    write_started(request, grid, picked)
    results = []
    for prompt_set in range(request.prompt_sets):
        demos = demonstration_sample(train, prompt_set)
        chosen, tune_score, settings = {}, None, {}
        if grid:
            chosen, tune_score, settings = _tune(request, grid, demos, picked["dev"], tune_data.name, tune_retriever,
                                                 reader, prompt_set, say)
        results.append(_test(request, chosen, tune_score, settings, demos, picked["test"], test_data.name,
                             test_retriever, reader, prompt_set, say))
    write_record(request, grid, picked, tune_data, test_data, results)
    return results


def on_split(request: ReproduceRequest, split: str, knobs: dict[str, Any]) -> RunSpec | None:
    """The request's run spec on a split (``SPEC[A-B]``) with these knobs, under the paper's profile and with the
    retriever ``auto`` chose (None: the request carries no spec)."""
    if request.run_spec is None:
        return None
    from hopkit.optimize.splits import split_spec

    dataset, span = split_spec(split)
    return replace(request.run_spec, method=request.method, profile=PROFILE, dataset=dataset, n=None,
                   questions=f"{span[0]}-{span[1]}" if span else None, knobs=dict(knobs), out=None,
                   retriever=request.record.get("retriever", request.run_spec.retriever))


def held_grid(grid: dict[str, list[Any]], fixed: dict[str, Any], method: str) -> dict[str, list[Any]]:
    """The grid without the knobs held fixed; only a knob the grid searches can be held."""
    outside = sorted(set(fixed) - set(grid))
    if outside:
        raise InputError(f"{', '.join(outside)} is not in the {method} grid ({', '.join(grid) or 'none'}): only a "
                         "knob the paper tunes can be held at a value chosen elsewhere")
    return {name: values for name, values in grid.items() if name not in fixed}


def chosen_in(study: Path, knob: str) -> Any:
    """The value a finished study's tune split chose for a knob (its prompt set 0), to hold in another study."""
    record = study / "reproduce.json"
    if not record.is_file():
        raise InputError(f"{study} holds no reproduce.json: finish that study's tune split first (reproduce it "
                         "with that folder as its out folder)")
    chosen = (json.loads(record.read_text()).get("prompt_sets") or [{}])[0].get("chosen") or {}
    if knob not in chosen:
        raise InputError(f"{record} chose no {knob}: its grid did not search it")
    return chosen[knob]


def demonstration_sample(train: Dataset | None, prompt_set: int) -> Dataset | None:
    """Prompt set 0 is the demonstrations as built; set i > 0 builds them from the train examples in another
    seeded order, so the builders (which pack in order until their budget is spent) take another sample."""
    if train is None or prompt_set == 0:
        return train
    examples = list(train.examples)
    random.Random(prompt_set).shuffle(examples)
    return replace(train, examples=examples)


def _tune(request: ReproduceRequest, grid: dict[str, list[Any]], train: Dataset | None, tune: list, tune_name: str,
          retriever: Any, reader: Any, prompt_set: int, say: Callable[[str], None]):
    from hopkit.optimize.objective import Objective
    from hopkit.optimize.request import (
        DemoSettings,
        OptimizeRequest,
        PruningSettings,
        Splits,
        StudyPlace,
        grid_points,
        setting_meta_of,
    )
    from hopkit.optimize.runner import optimize
    from hopkit.optimize.study import sqlite_url
    from hopkit.reproduce.shared_work import answer_shared

    folder = request.folder / f"tune-{prompt_set}"
    metric = get_metric(request.metric)
    study = OptimizeRequest(
        method=request.method, metric=metric, splits=Splits(train, tune, tune_name),
        place=StudyPlace(folder, sqlite_url(folder / "study.db"), f"reproduce-{request.method}-{prompt_set}"),
        trials=grid_points(grid), demos=DemoSettings("none"), pruning=PruningSettings(request.pruner),
        profile=PROFILE, grid=grid, fixed=dict(request.fixed), threads=request.threads, progress=request.progress,
        run_spec=on_split(request, request.tune or "", request.fixed))
    if request.pruner == "none":  # every setting answers every question, so the settings can share their work
        logs = Objective(build=lambda knobs: None, space={}, dev=tune, metric=metric, log_dir=folder / "settings",
                         **setting_meta_of(study, tune_name))  # the logs the study's trials then read
        answer_shared(request.method, grid, train, tune, retriever, metric, logs.log_for, PROFILE,
                      fixed=request.fixed, progress=request.progress, say=say)
    say(f"prompt set {prompt_set}: tuning {', '.join(f'{k} in {v}' for k, v in grid.items())} "
        f"({grid_points(grid)} settings) on {len(tune)} tune questions ...")
    result = optimize(study, retriever, reader, say=say)
    settings = {json.dumps(point["params"], sort_keys=True): point["metric"] for point in result.cost_front}
    say(f"chosen on tune: {result.knobs} ({request.metric} {100 * result.best_value:.1f})")
    return result.knobs, result.best_value, settings


def _test(request: ReproduceRequest, chosen: dict[str, Any], tune_score: float | None, settings: dict[str, float],
          train: Dataset | None, test: list, test_name: str, retriever: Any, reader: Any, prompt_set: int,
          say: Callable[[str], None]) -> PromptSetResult:
    chosen = {**request.fixed, **chosen}
    program = ProgramParts(request.method, retriever, reader, train, PROFILE).program(**chosen)
    path = request.folder / "test" / f"prompt-set-{prompt_set}.jsonl"
    spec = on_split(request, request.test, chosen)
    ran = run_meta(spec, test_name) if spec else {"method": request.method, "profile": PROFILE, "knobs": chosen}
    meta = {**ran, "test": request.test, "prompt_set": prompt_set, **request.record}
    questions = f"{len(test)} test question{'' if len(test) == 1 else 's'}"
    say(f"prompt set {prompt_set}: scoring {chosen or 'the paper setting'} once on {questions} ...")
    log = RunLog(path, meta, mechanics=MECHANICS)
    report = evaluate(program, test, [get_metric(name) for name in TEST_METRICS], log,
                      threads=request.threads, progress=request.progress)
    if retriever is not None and request.method != "oner":
        write_same_count_recall(log, test, retriever, path.with_suffix(".oner-recall.json"))
    return PromptSetResult(prompt_set, chosen, tune_score, str(path.relative_to(request.folder)), report.metrics,
                           report.cost, settings)


def write_same_count_recall(log: RunLog, test: list, retriever: Any, out: Path) -> None:
    """IRCoT's retrieval figure: per question, one retrieval with the question alone at as many paragraphs as the
    method read, and that retrieval's gold recall (no LM call), so the table can pair the method's recall with
    OneR's at the same count."""
    from hopkit.evaluation.metrics import recall_at

    questions = {ex.qid: ex for ex in test}
    recalls = {}
    for row in log.rows:
        example = questions.get(row["qid"])
        read = len((row.get("prediction") or {}).get("retrieved") or [])
        if example is None or not read or not example.gold_pids:
            continue
        ranked = [p.pid for p in retriever.retrieve(example.question, read)]
        recalls[row["qid"]] = {"read": read, "recall": recall_at(ranked, example.gold_pids, read)}
    out.write_text(json.dumps(recalls, indent=0))


def write_started(request: ReproduceRequest, grid: dict[str, list[Any]], picked: dict[str, list]) -> None:
    """``started.json``: the study's size before its first question, so that where an unfinished study stands can
    be read against it (hopkit/reproduce/progress.py); reproduce.json replaces it as the record once it ends. A
    resumed study keeps its first start and commit, and adds when (and at which commit) each resume began."""
    path = request.folder / STARTED
    now, commit = time.strftime("%Y-%m-%d %H:%M"), _commit()
    earlier = json.loads(path.read_text()) if path.is_file() else {}
    if earlier.get("started"):
        first = {"commit": earlier.get("commit"), "started": earlier["started"]}
        resumed = [*earlier.get("resumed", []), f"{now} at {commit}"]
    else:
        first, resumed = {"commit": commit, "started": now}, []
    path.write_text(json.dumps({
        "method": request.method, "grid": grid, "tune_n": len(picked["dev"]), "test_n": len(picked["test"]),
        "prompt_sets": request.prompt_sets, **first, **({"resumed": resumed} if resumed else {})},
        indent=2, default=str))


def write_record(request: ReproduceRequest, grid: dict[str, list[Any]], picked: dict[str, list], tune: Dataset,
                 test: Dataset, results: list[PromptSetResult]) -> Path:
    """``reproduce.json``: what was run, what the tune split chose and where its test rows are; the table
    (``hopkit reproduce-table``) reads it with the test logs."""
    path = request.folder / "reproduce.json"
    path.write_text(json.dumps({
        "method": request.method, "profile": PROFILE, "grid": grid, "fixed": request.fixed,
        "fixed_from": request.fixed_from, "pruner": request.pruner, "metric": request.metric,
        "tune": request.tune, "tune_n": len(picked["dev"]), "tune_dataset": tune.name if request.tune else None,
        "test": request.test, "test_n": len(picked["test"]), "test_dataset": test.name,
        "prompt_sets": [asdict(r) for r in results], "commit": _commit(), "written": time.strftime("%Y-%m-%d %H:%M"),
        **request.record}, indent=2, default=str))
    return path


def _spec_of(split: str) -> str:
    from hopkit.optimize.splits import split_spec

    return split_spec(split)[0]


def _commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).parent)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None
