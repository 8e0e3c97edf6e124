"""One optimization run: demos with a DSPy teleprompter, knobs with optuna, then the saved program.

``optimize`` reads as its four steps: (1) ``prepare_programs``: the program with the profile's knobs (``hopkit`` by
default, ``paper`` for the paper's setting) is compiled by the teleprompter on train (or left as built);
(2) ``search``: a study tunes the declared knobs on dev, trial 0 being the profile's settings, each trial building
the program with its knobs and the compiled demos; (3) ``choose``: the setting to keep; (4) ``finish``: it is scored
on test when a test split is given, and saved with its manifest, plots and summary.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import dspy
import optuna

from hopkit.evaluation.harness import evaluate
from hopkit.evaluation.run_log import RunLog
from hopkit.optimize.demos import (
    bootstrapped_demos,
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
from hopkit.optimize.request import (
    OptimizeRequest,
    OptimizeResult,
    check_budget,
    check_study_place,
    grid_points,
    setting_meta_of,
)
from hopkit.optimize.saved import save_program, split_hash
from hopkit.optimize.search_space import profile_defaults, search_space
from hopkit.optimize.study import Direction, enqueue_paper_trial, find_paper_trial, open_study, run_trials
from hopkit.optimize.study_record import study_costs, write_summary
from hopkit.programs.registry import ProgramParts
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever
from hopkit.tasks import DEFAULT_TASK


@dataclass
class PreparedPrograms:
    """What every trial builds from: the search space, the profile's values, the compiled demonstrations and the
    training questions they came from, and ``build(knobs, split)``."""

    space: dict[str, Any]
    defaults: dict[str, Any]
    state: dict[str, Any]
    sources: list[dict[str, Any]]  # where each demonstration came from (hopkit.optimize.demos.demo_sources)
    train_examples: list[dspy.Example]
    build: Callable[..., dspy.Module]


@dataclass
class Choice:
    """The study's outcome: the chosen trial, the profile's trial, and how the choice was reached."""

    best: optuna.trial.FrozenTrial
    paper_trial: optuna.trial.FrozenTrial | None
    pareto: list[dict[str, Any]]
    pruning: PruningReport | None
    rule: dict[str, Any] | None  # with choose = guarded: the corrected dev interval and what it kept


def optimize(request: OptimizeRequest, retriever: Retriever | None, reader: Reader | None,
             say: Callable[[str], None] = print,
             split_retrievers: Mapping[str, Retriever | None] | None = None) -> OptimizeResult:
    """Run the study. ``retriever`` reads dev's corpus; ``split_retrievers`` gives the train or test split's own
    where it has other paragraphs (another file or hub split, ``RunParts.retriever_for``): the training traces a
    teleprompter keeps and the test scores then retrieve from the questions' own corpora (a split not named there
    uses ``retriever``)."""
    check_request(request)
    start = time.perf_counter()
    prepared = prepare_programs(request, retriever, reader, say, split_retrievers)
    study, objective, settings, capped = search(request, prepared, say)
    choice = choose(request, study, objective, settings, say)
    return finish(request, prepared, study, objective, choice, settings, capped, start, say)


def check_request(request: OptimizeRequest) -> None:
    """Refuse a request that could not do its work, before anything is loaded or written."""
    check_study_place(request.place.folder)
    check_budget(request.trials, request.demos.teleprompter, request.demos.threshold)
    check_cap(request.pruning.max_calls_per_question)
    if request.choose not in CHOICE_RULES:
        raise ValueError(f"unknown choice rule {request.choose!r}; use {' or '.join(CHOICE_RULES)}")
    unknown = [name for name in request.objectives[1:] if name not in COST_OBJECTIVES]
    if unknown:
        raise ValueError(f"unknown cost objective {unknown}; use {', '.join(COST_OBJECTIVES)}")


def prepare_programs(request: OptimizeRequest, retriever: Retriever | None, reader: Reader | None,
                     say: Callable[[str], None],
                     split_retrievers: Mapping[str, Retriever | None] | None) -> PreparedPrograms:
    """Step 1: the program at the profile's knobs, its demonstrations compiled on train (or as built), and a
    refusal if any demonstration comes from a dev or test question."""
    splits = request.splits
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

    return PreparedPrograms(space, defaults, state, sources, train_examples, build)


def search(request: OptimizeRequest, prepared: PreparedPrograms,
           say: Callable[[str], None]) -> tuple[optuna.Study, Objective, int, list[dict[str, Any]]]:
    """Step 2: the study over the knobs on dev (trial 0 the profile's setting, or every point of a paper's grid);
    returns it with its objective, the distinct settings it finished and the trials the cost cap stopped."""
    splits, place, stopping = request.splits, request.place, request.pruning
    directions: list[Direction] = ["maximize" if request.metric.higher_is_better else "minimize"]
    directions += ["minimize" for _ in request.objectives[1:]]
    study = open_study(place.name, place.storage, directions, seed=request.seed,
                       heartbeat_s=place.heartbeat_s, grace_s=place.grace_s,
                       prune_startup=stopping.startup, pruner=stopping.pruner, grid=request.grid)
    if not request.grid:
        enqueue_paper_trial(study, prepared.defaults)
    state = prepared.state
    objective = Objective(prepared.build, prepared.space, splits.dev, request.metric, place.folder / "settings",
                          objectives=request.objectives, threads=request.threads, slices=stopping.slices,
                          progress=request.progress, demos_key=state_fingerprint(state) if state else None,
                          max_calls_per_question=stopping.max_calls_per_question, reference=prepared.defaults,
                          **setting_meta_of(request, splits.dev_name))
    say(f"study {place.name}: {request.trials} trials over {', '.join(prepared.space)} on {len(splits.dev)} dev "
        f"questions ({place.storage})")
    settings = run_trials(study, objective, grid_points(request.grid) if request.grid else request.trials)
    capped = capped_trials(study)
    for stopped in capped:
        say(f"trial {stopped['number']} stopped over the cap of {stopping.max_calls_per_question:g} LM calls a "
            f"question ({stopped['calls']:.1f}): {stopped['params']}")
    if settings < request.trials:
        say(f"the search space gave {settings} distinct settings in {len(study.trials)} trials, short of "
            f"{request.trials}: widen the ranges or fix fewer knobs")
    return study, objective, settings, capped


def choose(request: OptimizeRequest, study: optuna.Study, objective: Objective, settings: int,
           say: Callable[[str], None]) -> Choice:
    """Step 3: the trial to keep (the best on dev, or under ``guarded`` the profile's unless the lead survives
    selection among ``settings``), the Pareto front of a multi-objective study, and the unpruned check."""
    multi = len(request.objectives) > 1  # a metric and costs: a Pareto front, no single best
    pruning = None
    if request.pruning.unpruned_check and not multi:
        say("finishing every pruned trial on all of dev, to see what pruning saved and changed ...")
        pruning = check_pruning(study, request.splits.dev, request.metric.name,
                                lambda knobs: objective.log_for(knobs).rows, objective.finish,
                                maximize=request.metric.higher_is_better)
        say(pruning.line())
    pareto = [{"number": t.number, "params": t.params, "values": t.values} for t in study.best_trials] if multi else []
    best = max(study.best_trials, key=lambda t: t.values[0]) if multi else study.best_trial
    paper_trial = find_paper_trial(study)
    rule = None
    if request.choose == "guarded" and paper_trial and not multi and paper_trial.number != best.number:
        guarded = guarded_choice_of_rows(objective.log_for(paper_trial.params).rows,
                                         objective.log_for(best.params).rows, request.metric.name, settings,
                                         request.metric.higher_is_better)
        rule = {"rule": "guarded", "dev_best_trial": best.number, **guarded.to_dict()}
        say(f"guarded choice: trial {best.number} leads trial {paper_trial.number} (the {request.profile} profile) "
            f"on dev by {100 * guarded.diff:+.1f} "
            f"[{100 * guarded.low:+.1f}, {100 * guarded.high:+.1f}] at {100 * guarded.level:.1f}%; "
            + ("it is chosen" if guarded.takes_best else f"trial {paper_trial.number} is kept"))
        best = best if guarded.takes_best else paper_trial
    return Choice(best, paper_trial, pareto, pruning, rule)


def finish(request: OptimizeRequest, prepared: PreparedPrograms, study: optuna.Study, objective: Objective,
           choice: Choice, settings: int, capped: list[dict[str, Any]], start: float,
           say: Callable[[str], None]) -> OptimizeResult:
    """Step 4: the chosen setting (and the profile's) scored on test, the program saved with its manifest, the
    plots drawn and ``summary.json`` written."""
    splits, place = request.splits, request.place
    best, paper_trial = choice.best, choice.paper_trial
    knobs = {**request.fixed, **best.params}
    calls = {"dev_best": best.user_attrs.get("lm_calls_per_q", 0.0)}
    if paper_trial:
        calls["dev_default"] = paper_trial.user_attrs.get("lm_calls_per_q", 0.0)
    test_scores, test_paper = score_on_test(request, prepared.build, best, paper_trial, calls, say)
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
    train_examples = prepared.train_examples
    program_dir = save_program(
        place.folder / "program", prepared.build(best.params), request.method, knobs, metric=request.metric.name,
        dataset=splits.dev_name, dev_hash=split_hash(splits.dev), dev_n=len(splits.dev),
        train_hash=split_hash(train_examples) if train_examples else None, train_n=len(train_examples),
        test_hash=split_hash(splits.test) if splits.test else None, demos=request.demos.teleprompter,
        demo_threshold=request.demos.threshold if request.demos.teleprompter != "none" else None, seed=request.seed,
        study=place.name, storage=place.storage, best_trial=best.number,
        before=paper_trial.values[0] if paper_trial else None, after=best.values[0], test=test_scores,
        test_paper=test_paper,
        objectives=list(request.objectives), profile=request.profile, demo_sources=prepared.sources,
        **({"task": request.task.name} if request.task and request.task.name != DEFAULT_TASK else {}))
    plots = save_plots(study, place.folder / "plots", request.metric.name,
                       [request.metric.name, *request.objectives[1:]])
    front = cost_front(study)
    if front:
        plots["cost_front"] = plot_cost_front(front, place.folder / "plots" / "cost-front.png", request.metric.name)
    result = OptimizeResult(knobs=knobs, best_value=best.values[0],
                            default_value=paper_trial.values[0] if paper_trial else None, pareto=choice.pareto,
                            test_scores=test_scores, cache_hit_rate=hits / lm_calls if lm_calls else 0.0,
                            seconds=time.perf_counter() - start, program_dir=program_dir, plots=plots,
                            trials=len(study.trials), test_default_scores=test_paper, calls_per_question=calls,
                            answering_seconds=answering, settings=settings, pruning=choice.pruning,
                            cost_front=front, logs=relative, choice=choice.rule, capped=capped,
                            metric=request.metric.name)
    write_summary(request, result, best.number, paper_trial.number if paper_trial else None)
    return result


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
