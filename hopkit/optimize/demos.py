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
                  max_demos: int = 4, seed: int = 0, threads: int = 1) -> dspy.Module:
    """The student with demonstrations (and, for MIPROv2, instructions) chosen on ``trainset``."""
    if kind not in TELEPROMPTERS:
        raise UnknownNameError("teleprompter", kind, list(TELEPROMPTERS))
    train = labelled(trainset)
    if kind == "none":
        return student
    if kind == "labeled":
        return dspy.LabeledFewShot(k=max_demos).compile(student, trainset=train, sample=True)
    if kind == "bootstrap":
        return dspy.BootstrapFewShot(metric=metric, max_bootstrapped_demos=max_demos,
                                     max_labeled_demos=max_demos).compile(student, trainset=train)
    return dspy.MIPROv2(metric=metric, auto="light", seed=seed, num_threads=threads,
                        max_bootstrapped_demos=max_demos, max_labeled_demos=max_demos).compile(student, trainset=train)


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
