"""One optimization run: demos with a DSPy teleprompter, knobs with optuna, then the saved program.

Order: (1) the program with the profile's knobs (``hopkit`` by default, ``paper`` for the paper's setting) is compiled
by the teleprompter on train (or left as built); (2) a study tunes the declared knobs on dev, trial 0 being the
profile's settings, each
trial building the program with its knobs and the compiled demos; (3) the best setting is saved
with its manifest and plots, and scored on test when a test split is given.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dspy
import optuna

from hopkit.data.examples import Dataset
from hopkit.evaluation.harness import evaluate
from hopkit.evaluation.metrics import Metric
from hopkit.evaluation.run_log import RunLog
from hopkit.knobs.knob import Profile
from hopkit.optimize.demos import (
    bootstrapped_demos,
    check_demo_threshold,
    compile_demos,
    demo_sources,
    load_or_compile,
    refuse_held_out,
    state_fingerprint,
    unseen_by_demos,
)
from hopkit.optimize.guarded_choice import CHOICE_RULES, guarded_choice_of_rows
from hopkit.optimize.objective import COST_OBJECTIVES, Objective, capped_trials, check_cap
from hopkit.optimize.plots import cost_front, plot_cost_front, save_plots
from hopkit.optimize.pruning import PruningReport, check_pruning
from hopkit.optimize.saved import save_program, split_hash
from hopkit.optimize.search_space import profile_defaults, search_space
from hopkit.optimize.study import Direction, enqueue_paper_trial, find_paper_trial, open_study, run_trials
from hopkit.paths import check_study_folder
from hopkit.programs.registry import ProgramParts
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever
from hopkit.tasks import DEFAULT_TASK, Task


@dataclass(frozen=True)
class Splits:
    """The questions: train for demonstrations only, dev the study tunes on, test scored once at the end."""

    train: Dataset | None
    dev: Sequence[dspy.Example]
    dev_name: str
    test: Sequence[dspy.Example] = ()
    train_n: int = 20  # training questions the teleprompter may use


@dataclass(frozen=True)
class DemoSettings:
    teleprompter: str = "bootstrap"  # bootstrap | mipro | labeled | none
    threshold: float = 1.0  # metric score a training trace needs to become a demonstration


@dataclass(frozen=True)
class PruningSettings:
    """How a setting is stopped early, and whether to check afterwards what that saved and changed."""

    pruner: str = "median"  # median | halving | none (hopkit.optimize.study.make_pruner)
    slices: int = 3
    startup: int = 3  # finished settings before the median pruner may stop a trial
    max_calls_per_question: float | None = None  # stop a setting that costs more (the cost cap, objective.py)
    unpruned_check: bool = False  # after the study, finish every pruned trial on all of dev and compare


@dataclass(frozen=True)
class StudyPlace:
    """Where the study lives: its folder (logs, plots, the saved program) and its optuna storage."""

    folder: Path
    storage: str
    name: str
    heartbeat_s: int = 60
    grace_s: int = 180


# what marks a folder as an optimize study's: its settings' run logs, its default SQLite storage, its sessions
STUDY_MARKERS = ("settings", "study.db", "invocations.jsonl")


def check_study_place(folder: Path) -> None:
    """Refuse a folder of the user's own before anything loads: the study writes its summary and plots there."""
    check_study_folder(folder, STUDY_MARKERS, "an optimize study's folder")


@dataclass(frozen=True)
class OptimizeRequest:
    """One study, grouped by concern: the splits, the demonstrations, the search, its pruning and its place."""

    method: str
    metric: Metric
    splits: Splits
    place: StudyPlace
    trials: int
    demos: DemoSettings = DemoSettings()
    pruning: PruningSettings = PruningSettings()
    profile: Profile = "hopkit"  # knobs not searched, and trial 0's values of those searched (as every verb's default)
    objectives: Sequence[str] = ("metric",)
    fixed: dict[str, Any] = field(default_factory=dict)
    params: Sequence[str] | None = None
    # a paper's grid (hopkit/reproduce/grids.py): GridSampler over exactly these values, every point tried once, and
    # no separate paper's trial (the grid holds the settings the paper chose among)
    grid: dict[str, list[Any]] | None = None
    choose: str = "best"  # best: the top dev score | guarded: the paper's trial unless the lead survives selection
    seed: int = 0
    threads: int = 1
    progress: bool = True
    # the run spec of the study's runs (the LM, retriever, profile, fixed knobs): each setting's log records it with
    # its own knobs, as eval records a run (None: the knobs alone)
    run_spec: Any = None
    task: Task | None = None  # the task every trial's program answers, as eval's does (None: the method's own answer)
    retriever_choice: str | None = None  # what ``--retriever auto`` measured to choose the backend, as eval records it


def setting_meta_of(request: OptimizeRequest, dev_name: str) -> dict[str, Any]:
    """The objective's setting metadata from the request's run spec, where it has one (also for an objective that
    answers the settings before the study reads them: hopkit/reproduce/shared_work.py)."""
    if request.run_spec is None:
        return {}
    from dataclasses import replace

    from hopkit.spec import MECHANICS, run_meta

    spec = request.run_spec
    chosen = {"retriever_choice": request.retriever_choice} if request.retriever_choice else {}

    def setting_meta(knobs: dict[str, Any]) -> dict:
        return {**run_meta(replace(spec, knobs={**spec.knobs, **knobs}), dev_name), **chosen}

    return {"setting_meta": setting_meta, "mechanics": MECHANICS}


@dataclass
class OptimizeResult:
    knobs: dict[str, Any]
    best_value: float
    default_value: float | None
    pareto: list[dict[str, Any]]
    test_scores: dict[str, float]
    cache_hit_rate: float
    seconds: float
    program_dir: Path
    plots: dict[str, str]
    trials: int
    test_default_scores: dict[str, float] = field(default_factory=dict)
    calls_per_question: dict[str, float] = field(default_factory=dict)  # dev/test x default/best
    total_seconds: float = 0.0  # wall time of every invocation that worked this study folder and finished
    answering_seconds: float = 0.0  # per-question seconds over every trial and test run, killed runs included
    summary_path: Path | None = None
    settings: int = 0  # distinct finished settings; ``trials`` also counts repeats and failed trials
    pruning: PruningReport | None = None  # with unpruned_check: what pruning saved, and whether it chose the same
    cost_front: list[dict[str, Any]] = field(default_factory=list)  # every setting by dev metric and LM calls
    logs: dict[str, str] = field(default_factory=dict)  # dev/test x best/default: the run logs behind the figures
    choice: dict[str, Any] | None = None  # with choose = guarded: the corrected dev interval and what it kept
    capped: list[dict[str, Any]] = field(default_factory=list)  # trials stopped over --max-calls-per-question


def optimize(request: OptimizeRequest, retriever: Retriever | None, reader: Reader | None,
             say: Callable[[str], None] = print,
             split_retrievers: Mapping[str, Retriever | None] | None = None) -> OptimizeResult:
    """Run the study. ``retriever`` reads dev's corpus; ``split_retrievers`` gives the train or test split's own
    where it has other paragraphs (another file or hub split, ``RunParts.retriever_for``): the training traces a
    teleprompter keeps and the test scores then retrieve from the questions' own corpora (a split not named there
    uses ``retriever``)."""
    splits, place, stopping = request.splits, request.place, request.pruning
    check_study_place(place.folder)
    check_budget(request.trials, request.demos.teleprompter, request.demos.threshold)
    check_cap(stopping.max_calls_per_question)
    if request.choose not in CHOICE_RULES:
        raise ValueError(f"unknown choice rule {request.choose!r}; use {' or '.join(CHOICE_RULES)}")
    start = time.perf_counter()
    space = search_space(request.method, list(request.grid) if request.grid else request.params, request.fixed,
                         compiled_demos=request.demos.teleprompter != "none")
    defaults = profile_defaults(space, request.profile, reader)

    parts = {split: ProgramParts(request.method, over, reader, splits.train, request.profile, request.task,
                                 fixed=request.fixed)
             for split, over in {"dev": retriever, **(split_retrievers or {})}.items()}

    def base(knobs: dict[str, Any], state: dict[str, Any] | None = None, split: str = "dev") -> dspy.Module:
        return parts.get(split, parts["dev"]).program(state=state, **knobs)

    papers_program = base(defaults)
    train_examples = unseen_by_demos(splits.train.examples, papers_program, splits.train_n) if splits.train else []
    state = demos_state(request, base(defaults, split="train"), train_examples, say)

    sources = demo_sources(state or papers_program.dump_state(), splits.train.examples if splits.train else [],
                           [*splits.dev, *splits.test])
    refuse_held_out(sources)

    def build(knobs: dict[str, Any], split: str = "dev") -> dspy.Module:
        return base(knobs, state, split)

    directions: list[Direction] = ["maximize" if request.metric.higher_is_better else "minimize"]
    directions += ["minimize" for name in request.objectives[1:]]
    unknown = [name for name in request.objectives[1:] if name not in COST_OBJECTIVES]
    if unknown:
        raise ValueError(f"unknown cost objective {unknown}; use {', '.join(COST_OBJECTIVES)}")
    study = open_study(place.name, place.storage, directions, seed=request.seed,
                       heartbeat_s=place.heartbeat_s, grace_s=place.grace_s,
                       prune_startup=stopping.startup, pruner=stopping.pruner, grid=request.grid)
    if not request.grid:
        enqueue_paper_trial(study, defaults)
    objective = Objective(build, space, splits.dev, request.metric, place.folder / "settings",
                          objectives=request.objectives, threads=request.threads, slices=stopping.slices,
                          progress=request.progress, demos_key=state_fingerprint(state) if state else None,
                          max_calls_per_question=stopping.max_calls_per_question, reference=defaults,
                          **setting_meta_of(request, splits.dev_name))
    say(f"study {place.name}: {request.trials} trials over {', '.join(space)} on {len(splits.dev)} dev "
        f"questions ({place.storage})")
    settings = run_trials(study, objective, grid_points(request.grid) if request.grid else request.trials)
    capped = capped_trials(study)
    for stopped in capped:
        say(f"trial {stopped['number']} stopped over the cap of {stopping.max_calls_per_question:g} LM calls a "
            f"question ({stopped['calls']:.1f}): {stopped['params']}")
    if settings < request.trials:
        say(f"the search space gave {settings} distinct settings in {len(study.trials)} trials, short of "
            f"{request.trials}: widen the ranges or fix fewer knobs")

    multi = len(directions) > 1
    pruning = None
    if stopping.unpruned_check and not multi:
        say("finishing every pruned trial on all of dev, to see what pruning saved and changed ...")
        pruning = check_pruning(study, splits.dev, request.metric.name, lambda knobs: objective.log_for(knobs).rows,
                                objective.finish, maximize=request.metric.higher_is_better)
        say(pruning.line())
    pareto = [{"number": t.number, "params": t.params, "values": t.values} for t in study.best_trials] if multi else []
    best = max(study.best_trials, key=lambda t: t.values[0]) if multi else study.best_trial
    paper_trial = find_paper_trial(study)
    choice = None
    if request.choose == "guarded" and paper_trial and not multi and paper_trial.number != best.number:
        guarded = guarded_choice_of_rows(objective.log_for(paper_trial.params).rows,
                                         objective.log_for(best.params).rows, request.metric.name, settings,
                                         request.metric.higher_is_better)
        choice = {"rule": "guarded", "dev_best_trial": best.number, **guarded.to_dict()}
        say(f"guarded choice: trial {best.number} leads trial {paper_trial.number} (the {request.profile} profile) "
            "on "
            f"dev by {100 * guarded.diff:+.1f} "
            f"[{100 * guarded.low:+.1f}, {100 * guarded.high:+.1f}] at {100 * guarded.level:.1f}%; "
            + ("it is chosen" if guarded.takes_best else f"trial {paper_trial.number} is kept"))
        best = best if guarded.takes_best else paper_trial
    knobs = {**request.fixed, **best.params}
    program = build(best.params)
    calls = {"dev_best": best.user_attrs.get("lm_calls_per_q", 0.0)}
    if paper_trial:
        calls["dev_default"] = paper_trial.user_attrs.get("lm_calls_per_q", 0.0)
    test_scores, test_paper = score_on_test(request, build, best, paper_trial, calls, say)
    logs = {"dev_best": objective.log_for(best.params).path}
    if paper_trial:
        logs["dev_default"] = objective.log_for(paper_trial.params).path
    if test_scores:
        logs["test_best"] = place.folder / "test" / f"best-{best.number}.jsonl"
        logs["test_default"] = place.folder / "test" / (f"default-{paper_trial.number}.jsonl"
                                                          if paper_trial and paper_trial.number != best.number
                                                          else f"best-{best.number}.jsonl")
    relative = {key: os.path.relpath(path, place.folder) for key, path in logs.items()}  # the folder moves whole
    lm_calls, hits, answering = study_costs(place.folder)
    program_dir = save_program(
        place.folder / "program", program, request.method, knobs, metric=request.metric.name,
        dataset=splits.dev_name, dev_hash=split_hash(splits.dev), dev_n=len(splits.dev),
        train_hash=split_hash(train_examples) if train_examples else None, train_n=len(train_examples),
        test_hash=split_hash(splits.test) if splits.test else None, demos=request.demos.teleprompter,
        demo_threshold=request.demos.threshold if request.demos.teleprompter != "none" else None, seed=request.seed,
        study=place.name, storage=place.storage, best_trial=best.number,
        before=paper_trial.values[0] if paper_trial else None, after=best.values[0], test=test_scores,
        test_paper=test_paper,
        objectives=list(request.objectives), profile=request.profile, demo_sources=sources,
        **({"task": request.task.name} if request.task and request.task.name != DEFAULT_TASK else {}))
    plots = save_plots(study, place.folder / "plots", request.metric.name,
                       [request.metric.name, *request.objectives[1:]])
    front = cost_front(study)
    if front:
        plots["cost_front"] = plot_cost_front(front, place.folder / "plots" / "cost-front.png", request.metric.name)
    result = OptimizeResult(knobs=knobs, best_value=best.values[0],
                            default_value=paper_trial.values[0] if paper_trial else None, pareto=pareto,
                            test_scores=test_scores, cache_hit_rate=hits / lm_calls if lm_calls else 0.0,
                            seconds=time.perf_counter() - start, program_dir=program_dir, plots=plots,
                            trials=len(study.trials), test_default_scores=test_paper, calls_per_question=calls,
                            answering_seconds=answering, settings=settings, pruning=pruning, cost_front=front,
                            logs=relative,
                            choice=choice, capped=capped)
    write_summary(request, result, best.number, paper_trial.number if paper_trial else None)
    return result


def grid_points(grid: dict[str, list[Any]]) -> int:
    points = 1
    for values in grid.values():
        points *= len(values)
    return points


def check_budget(trials: int, demos: str, demo_threshold: float) -> None:
    """Refuse a run that could not do its work, before anything is loaded or written."""
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    if demos != "none":
        check_demo_threshold(demo_threshold)


def demos_state(request: OptimizeRequest, papers_program: dspy.Module,
                train_examples: list[dspy.Example], say: Callable[[str], None]) -> dict[str, Any]:
    """The DSPy state (demos, instructions) every trial gets: compiled once on train with the papers'
    knobs, or read back from the study folder when an earlier run compiled it; empty for ``none``."""
    place = request.place
    if request.demos.teleprompter == "none":
        return {}
    if not train_examples:
        raise ValueError("demonstrations need a train split")

    def compile_state() -> dict[str, Any]:
        say(f"compiling demonstrations with {request.demos.teleprompter} on {len(train_examples)} training "
            "questions ...")
        import contextlib
        import io

        # DSPy's teleprompters draw their own progress bars on stderr: a quiet study keeps them off the terminal
        quiet = contextlib.redirect_stderr(io.StringIO()) if not request.progress else contextlib.nullcontext()
        with quiet:
            compiled = compile_demos(request.demos.teleprompter, papers_program, train_examples, request.metric,
                                     seed=request.seed, threads=request.threads, threshold=request.demos.threshold)
        if request.demos.teleprompter in ("bootstrap", "mipro") and not bootstrapped_demos(compiled):
            say(f"no training trace reached the demonstration threshold {request.demos.threshold}: every predictor "
                "keeps the demonstrations it was built with (lower the demonstration threshold to keep partly right "
                "traces)")
        return compiled.dump_state()

    provenance = {"method": request.method, "demos": request.demos.teleprompter, "train": split_hash(train_examples),
                  "train_n": len(train_examples), "metric": request.metric.name, "seed": request.seed,
                  "fixed": request.fixed, "demo_threshold": request.demos.threshold}
    return load_or_compile(place.folder, provenance, compile_state, say=say)


def score_on_test(request: OptimizeRequest, build: Callable[[dict[str, Any], str], dspy.Module],
                  best: optuna.trial.FrozenTrial, paper_trial: optuna.trial.FrozenTrial | None,
                  calls: dict[str, float], say: Callable[[str], None]) -> tuple[dict[str, float], dict[str, float]]:
    """Test scores of the best setting and of the papers' setting (the same when the papers' won);
    their LM calls per question go into ``calls``. Each run is a JSONL in ``test/``, so a killed
    scoring resumes where it stopped."""
    splits, place = request.splits, request.place
    if not splits.test:
        return {}, {}

    def score(trial: optuna.trial.FrozenTrial, name: str) -> tuple[dict[str, float], float]:
        knobs = {**request.fixed, **trial.params}
        report = evaluate(build(trial.params, "test"), splits.test, [request.metric],
                          RunLog(place.folder / "test" / f"{name}-{trial.number}.jsonl", {"knobs": knobs}),
                          threads=request.threads, progress=request.progress)
        return report.metrics, report.cost["lm_calls"]

    say(f"scoring the best setting (trial {best.number}) on {len(splits.test)} test questions ...")
    test_best, calls["test_best"] = score(best, "best")
    test_paper: dict[str, float] = {}
    if paper_trial and paper_trial.number != best.number:
        say(f"scoring the {request.profile} profile's setting (trial {paper_trial.number}) on the same test "
            "questions ...")
        test_paper, calls["test_default"] = score(paper_trial, "default")
    elif paper_trial:
        test_paper, calls["test_default"] = test_best, calls["test_best"]
    return test_best, test_paper


def study_costs(folder: Path) -> tuple[int, int, float]:
    """LM calls and cache hits over every trial's questions, and the answering seconds over those and
    the test runs, whichever run answered them (killed runs included)."""
    rows = study_rows(folder / "settings")
    answering = sum(r["cost"].get("seconds", 0.0) for r in rows + study_rows(folder / "test", "*.jsonl"))
    return (sum(r["cost"]["lm_calls"] for r in rows), sum(r["cost"].get("cache_hits", 0) for r in rows), answering)


def study_rows(folder: Path, pattern: str = "setting-*.jsonl") -> list[dict[str, Any]]:
    """Every answered question in a study's settings (or test) folder, whichever run answered it."""
    rows = []
    for path in sorted(folder.glob(pattern)):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:  # a line torn by a killed worker; its question was redone
                continue
    return rows


def write_summary(request: OptimizeRequest, result: OptimizeResult, best: int, default: int | None) -> None:
    """``summary.json`` in the study folder: the figures a results table needs, with the wall time of
    every invocation that finished (a study resumed across sessions adds up) and the answering time,
    the per-question seconds kept in the study's files, which also counts runs killed before the end."""
    splits, place, pruning = request.splits, request.place, request.pruning
    sessions = place.folder / "invocations.jsonl"
    with sessions.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"seconds": round(result.seconds, 1), "trials_after": result.trials}) + "\n")
    result.total_seconds = sum(json.loads(line)["seconds"] for line in sessions.read_text().splitlines() if line)
    result.summary_path = place.folder / "summary.json"
    result.summary_path.write_text(json.dumps({
        "method": request.method, "dataset": splits.dev_name, "dev_n": len(splits.dev), "test_n": len(splits.test),
        "metric": request.metric.name, "demos": request.demos.teleprompter, "objectives": list(request.objectives),
        "fixed": request.fixed, "study": place.name, "trials": result.trials,
        "settings": result.settings,
        "default_trial": default, "best_trial": best, "best_knobs": result.knobs,
        "dev": {"default": result.default_value, "best": result.best_value},
        "test": {"default": result.test_default_scores.get(request.metric.name),
                 "best": result.test_scores.get(request.metric.name)},
        "lm_calls_per_question": result.calls_per_question, "cache_hit_rate": result.cache_hit_rate,
        "seconds_this_run": result.seconds, "seconds_all_runs": result.total_seconds,
        "seconds_answering": round(result.answering_seconds, 1),
        **({"pareto": result.pareto} if result.pareto else {}),  # multi-objective; one metric has the cost front
        "questions_answered": questions_answered(place.folder), "pruner": pruning.pruner,
        "cost_front": [p for p in result.cost_front if p["front"]], "logs": result.logs,
        "pruning": result.pruning.to_dict() if result.pruning else None, "choice": result.choice,
        **({"call_cap": {"max_calls_per_question": pruning.max_calls_per_question, "stopped": result.capped}}
           if pruning.max_calls_per_question is not None else {}),
    }, indent=2, default=str))


def questions_answered(folder: Path) -> dict[str, float]:
    """Questions the study's trials answered (each setting's once) and the LM hours they took, as computed."""
    from hopkit.lm.usage import computed_cost

    rows = study_rows(folder / "settings")  # one row per question answered under a setting
    return {"questions": len(rows),
            "lm_hours": round(sum(computed_cost(r.get("cost") or {})["seconds"] for r in rows) / 3600, 3)}
