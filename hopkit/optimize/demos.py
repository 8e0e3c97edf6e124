"""Demonstrations and instructions through DSPy's own teleprompters, with the project's metric."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dspy

from hopkit.errors import UnknownNameError
from hopkit.evaluation.metrics import Metric

TELEPROMPTERS = ("bootstrap", "mipro", "labeled", "none")


def labelled(examples: Sequence[dspy.Example]) -> list[dspy.Example]:
    """Training examples with a single ``answer`` label next to the alias list, so teleprompters
    that show labels (LabeledFewShot, the labeled part of BootstrapFewShot) have one to show."""
    return [ex.copy(answer=ex.answers[0]).with_inputs("question") if ex.answers else ex for ex in examples]


def compile_demos(kind: str, student: dspy.Module, trainset: Sequence[dspy.Example], metric: Metric, *,
                  max_demos: int = 4, seed: int = 0, threads: int = 1, threshold: float = 1.0) -> dspy.Module:
    """The student with demonstrations (and, for MIPROv2, instructions) chosen on ``trainset``.

    A training trace becomes a demonstration only when its metric score reaches ``threshold``. The
    project's metrics are graded (F1), and DSPy, given no threshold, keeps every trace whose score is
    truthy: a partly right answer ("X was founded later than Y." for gold "Y", F1 0.57) would teach
    the reader and the answer writer to answer that way."""
    if kind not in TELEPROMPTERS:
        raise UnknownNameError("teleprompter", kind, list(TELEPROMPTERS))
    check_demo_threshold(threshold)
    train = labelled(trainset)
    if kind == "none":
        return student
    if kind == "labeled":
        compiled = dspy.LabeledFewShot(k=max_demos).compile(student, trainset=train, sample=True)
    elif kind == "bootstrap":
        compiled = dspy.BootstrapFewShot(metric=metric, metric_threshold=threshold,
                                         max_bootstrapped_demos=max_demos, max_labeled_demos=max_demos
                                         ).compile(student, teacher=own_demos_teacher(student), trainset=train)
    else:
        compiled = dspy.MIPROv2(metric=metric, metric_threshold=threshold, auto="light", seed=seed, num_threads=threads,
                                max_bootstrapped_demos=max_demos, max_labeled_demos=max_demos
                                ).compile(student, teacher=own_demos_teacher(student), trainset=train)
    return drop_incomplete_demos(compiled, student)


def check_demo_threshold(threshold: float) -> None:
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"--demo-threshold must be in (0, 1], got {threshold}")


def all_demos(program: dspy.Module) -> list[dspy.Example]:
    return [demo for _, predictor in program.named_predictors() for demo in predictor.demos]


def bootstrapped_demos(program: dspy.Module) -> int:
    """How many of the program's demonstrations are traces a teleprompter kept (DSPy marks them
    ``augmented``), as opposed to built or labelled ones."""
    return sum(bool(demo.get("augmented")) for demo in all_demos(program))


def unseen_by_demos(examples: Sequence[dspy.Example], program: dspy.Module, n: int) -> list[dspy.Example]:
    """The first ``n`` examples whose question none of the program's built demonstrations shows. The
    built demonstrations (IRCoT's chains, SearChain's Chain-of-Query, ToR's reviews) come from the same
    train split; a teacher shown a question's own chain passes it trivially, and DSPy only drops a demo
    equal to the example, which a built demo never is."""
    shown = {demo.get("question") for demo in all_demos(program)}
    return [ex for ex in examples if ex.question not in shown][:n]


def own_demos_teacher(student: dspy.Module) -> dspy.Module:
    """The program as built, with its own demonstrations (IRCoT's chains, SearChain's Chain-of-Query,
    ToR's reviews), runs the training questions. Marked compiled, because DSPy otherwise replaces an
    uncompiled teacher's demonstrations with bare labelled questions, and a planner shown questions
    without plans writes no plan."""
    teacher = student.deepcopy()
    teacher._compiled = True
    return teacher


def drop_incomplete_demos(compiled: dspy.Module, original: dspy.Module) -> dspy.Module:
    """A labelled training question lacks the outputs of most predictors (a plan, a review); DSPy
    would show those fields as "Not supplied", which a small LM copies as its answer. Such demos are
    dropped, and a predictor left with none keeps the demonstrations it was built with."""
    own = dict(original.named_predictors())
    for name, predictor in compiled.named_predictors():
        outputs = list(predictor.signature.output_fields)
        complete = [demo for demo in predictor.demos if all(demo.get(field) is not None for field in outputs)]
        predictor.demos = complete or list(own[name].demos)
    return compiled


def apply_state(program: dspy.Module, state: dict[str, Any]) -> dspy.Module:
    """Load tuned demos and instructions into a program built with other knobs. A predictor whose
    fields differ from the saved one's (a knob switched its signature) keeps its own."""
    for name, predictor in program.named_predictors():
        saved = state.get(name)
        if not saved:
            continue
        theirs = [f.get("prefix", "") for f in saved.get("signature", {}).get("fields", [])]
        mine = [f.json_schema_extra.get("prefix", "") for f in predictor.signature.fields.values()]
        if theirs and theirs != mine:
            continue
        predictor.load_state(saved)
    return program
