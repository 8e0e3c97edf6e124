"""``hopkit optimize``: a study of demonstrations (DSPy's teleprompters) and knobs (optuna) on a dev split, scored
once on a test split, over the parts ``hopkit eval`` opens from the same flags (docs/optimizer.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from hopkit.cli.components import (
    add_lm_flags,
    add_profile_flag,
    configure_lm,
)
from hopkit.cli.study_file import FileSetting, add_study_file_flag, flags_as_file_settings
from hopkit.errors import InputError
from hopkit.optimize.guarded_choice import CHOICE_RULES
from hopkit.spec import RunSpec

if TYPE_CHECKING:
    from hopkit.optimize.request import OptimizeResult
    from hopkit.optimize.study_spec import StudySpec


# ``hopkit optimize``'s settings that a study gives in its file (--config STUDY.toml), so that the command keeps to
# the study's main concerns: the splits' sizes, the study's storage and seed, the pruner, the choice rule, and the
# run's components other than the LM (the keys of the flags ``hopkit eval`` has for them)
def optimize_file_settings() -> tuple[FileSetting, ...]:
    from hopkit.cli.components import add_retrieval_flags
    from hopkit.tasks import TASKS

    return (
        FileSetting("n_train", int, 20, "training questions the teleprompter may use"),
        FileSetting("n_dev", int, 20, "dev questions, where the dev spec gives no range"),
        FileSetting("n_test", int, 20, "test questions, where the test spec gives no range"),
        FileSetting("pruner", str, "median", "how a trial that trails after a dev slice is stopped (none: every "
                    "trial answers all of dev)", ("median", "halving", "none")),
        FileSetting("slices", int, 3, "growing dev slices a trial can be pruned after (1: no pruning)"),
        FileSetting("prune_startup", int, 3, "finished settings before the median pruner may stop a trial (a "
                    "setting tried twice counts once)"),
        FileSetting("unpruned_check", bool, False, "after the study, finish each pruned trial on all of dev: the "
                    "questions and LM hours pruning saved, and whether the same setting would have been chosen"),
        FileSetting("choose", str, "best", "best: the top dev score; guarded: keep trial 0 unless the best's paired "
                    "dev lead, corrected for the settings it was picked from, is above zero", tuple(CHOICE_RULES)),
        FileSetting("seed", int, 0, "the sampler's seed"),
        FileSetting("threads", int, 1, "questions answered at once"),
        FileSetting("storage", str, None, "optuna storage URL (default: SQLite in the study folder)"),
        FileSetting("study", str, None, "study name (default from method, dataset, metric, demos and LM)"),
        FileSetting("quiet", bool, False, "no progress bars"),
        FileSetting("task", str, None, "the task every trial answers, as eval answers it (default: the dev split's)",
                    tuple(TASKS)),
        *flags_as_file_settings(add_retrieval_flags, leave_out=("demos_from",)),  # the train split gives the demos
    )


def add_parsers(verbs: argparse._SubParsersAction) -> None:
    opt = verbs.add_parser("optimize", help="tune demonstrations (DSPy) and knobs (optuna) on train/dev; save the "
                                            "program")
    opt.add_argument("--method", default=None, help="the method to tune (required)")
    opt.add_argument("--dataset", default="bundled", help="a dataset with splits: bundled (train/dev/test)")
    opt.add_argument("--train", default=None,
                     help="train split spec, demonstrations only, e.g. 'musique:train@train.jsonl' (default "
                     "<dataset>:train); SPEC[A-B] takes questions A to B")
    opt.add_argument("--dev", default=None, help="dev split spec the study tunes on, e.g. 'SPEC[1-50]' (default "
                     "<dataset>:dev)")
    opt.add_argument("--test", default=None, help="test split spec, never seen by the study, scored once with "
                     "trial 0 and the best setting, e.g. 'SPEC[51-100]' (optional); overlapping splits are refused")
    opt.add_argument("--metric", default=None, help="the metric tuned (default: f1, or the task's own where it has "
                                                    "no f1: label_acc for fact-check, rouge_l for long-form)")
    opt.add_argument("--demos", default="bootstrap", choices=["bootstrap", "mipro", "labeled", "none"])
    opt.add_argument("--demo-threshold", type=float, default=1.0,
                     help="metric score a training trace must reach to become a demonstration (default 1.0: "
                          "a fully right answer; DSPy would otherwise keep any trace with F1 above 0)")
    opt.add_argument("--trials", type=int, default=10,
                     help="distinct settings to try; a setting the sampler draws again is an optuna trial read from "
                          "the first one's log, not answered again (the summary counts both)")
    opt.add_argument("--params", default=None, help="comma-separated knobs to tune (default: all declared)")
    opt.add_argument("--objectives", default=None, help="e.g. f1,lm_calls (also tokens, seconds): a Pareto front")
    opt.add_argument("--max-calls-per-question", type=float, default=None, metavar="CALLS",
                     help="stop a setting whose LM calls a question exceed CALLS, after 3 dev questions and at each "
                     "slice; the paper's setting is never stopped (default: no cap)")
    opt.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="fix a knob (not tuned)")
    add_profile_flag(opt, text="the knobs not tuned, and trial 0's values of those tuned (paper: the study starts "
                              "from the paper's setting)")
    opt.add_argument("--out", type=Path, default=None, help="study folder (default runs/optimize/<study>); "
                     "resumed, and refused if it exists and is not an optimize study's")
    add_lm_flags(opt)  # the LM flags every verb takes, eval's among them
    add_study_file_flag(opt, optimize_file_settings())
    opt.set_defaults(run=cmd_optimize)


def optimize_specs(args: argparse.Namespace) -> tuple[RunSpec, StudySpec]:
    """The run spec of a study's dev runs, as eval would write it (the dev split, the LM and retriever flags, the
    profile and the fixed knobs; each setting's log adds its own), and the study spec from the other flags and the
    study file. ``--objectives`` names the metric first, then the costs."""
    from dataclasses import replace

    from hopkit.cli.run_spec import spec_from_flags
    from hopkit.evaluation.metrics import METRICS
    from hopkit.optimize.study_spec import StudySpec
    from hopkit.programs.registry import get_method

    metric, costs = args.metric, ()
    if args.objectives:
        names = [n.strip() for n in args.objectives.split(",") if n.strip()]
        if names[0] != (args.metric or names[0]) or names[0] not in METRICS:
            first = args.metric or "f1"
            raise InputError(f"--objectives must start with the metric ({first}), e.g. {first},lm_calls")
        metric, costs = names[0], tuple(names[1:])
    needs_train = args.demos != "none" or get_method(args.method).uses_demos
    spec = replace(spec_from_flags(args), dataset=args.dev or f"{args.dataset}:dev", n=None, questions=None,
                   out=None)
    study = StudySpec(
        train=(args.train or f"{args.dataset}:train") if needs_train else None, test=args.test,
        n_train=args.n_train, n_dev=args.n_dev, n_test=args.n_test, metric=metric, costs=costs, demos=args.demos,
        demo_threshold=args.demo_threshold, trials=args.trials,
        params=tuple(p.strip() for p in args.params.split(",")) if args.params else None,
        max_calls_per_question=args.max_calls_per_question, pruner=args.pruner, slices=args.slices,
        prune_startup=args.prune_startup, unpruned_check=args.unpruned_check, choose=args.choose, seed=args.seed,
        storage=args.storage, name=args.study, out=str(args.out) if args.out else None)
    return spec, study


def cmd_optimize(args: argparse.Namespace) -> None:
    from hopkit.cli.study_file import apply_study_file
    from hopkit.run.optimize import run_optimize

    apply_study_file(args, required=("method",))
    spec, study = optimize_specs(args)
    if args.quiet:  # optuna's own log says each trial at INFO
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
    result = run_optimize(spec, study, api_key=args.api_key, progress=not args.quiet,
                          configure_lm=lambda: configure_lm(args))
    print_result(result, result.metric, args.profile)


def print_result(result: OptimizeResult, metric: str, profile: str) -> None:
    before = f"{result.default_value:.4f}" if result.default_value is not None else "n/a"
    print(f"trials: {result.trials} ({result.settings} distinct settings); "
          f"{metric} on dev: trial 0 ({profile} profile) {before} -> best {result.best_value:.4f}")
    print(f"best knobs: {result.knobs}")
    if result.test_scores:
        default = result.test_default_scores.get(metric)
        before = "n/a" if default is None else f"{default:.4f}"
        print(f"{metric} on test: trial 0 ({profile} profile) {before} -> best {result.test_scores[metric]:.4f}")
    calls = ", ".join(f"{where} {value:.2f}" for where, value in result.calls_per_question.items())
    print(f"LM calls per question: {calls}")
    for point in result.pareto:
        print(f"  pareto trial {point['number']}: {point['values']} {point['params']}")
    print(f"LM cache hit rate {100 * result.cache_hit_rate:.1f}%; wall time {result.seconds:.0f} s "
          f"({result.total_seconds:.0f} s over every run of this study that finished; "
          f"{result.answering_seconds:.0f} s answering questions, killed runs included)")
    print(f"summary: {result.summary_path}")
    print(f"saved program: {result.program_dir}  (hopkit eval --program {result.program_dir})")
    for name, where in result.plots.items():
        print(f"plot {name}: {where}")
