"""Demonstrations: compiled once on train by a DSPy teleprompter (or read back from the study folder when an earlier
run compiled them from the same inputs), applied to every trial's program, and refused when one shows a dev or test
question.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import dspy

from hopkit.errors import InputError, UnknownNameError
from hopkit.evaluation.metrics import Metric
from hopkit.text.normalize import normalize_answer


def _key(text: Any) -> str:
    return normalize_answer(str(text or ""))


def demo_sources(state: dict[str, Any], train: Sequence[dspy.Example], held_out: Sequence[dspy.Example] = ()
                 ) -> list[dict[str, Any]]:
    """One record per demonstration: predictor, position, source (bootstrapped / labeled / not a split question)
    and the train question's id; ``held_out`` (dev and test) questions are marked."""
    train_ids = {_key(ex.question): str(ex.qid) for ex in train}
    held = {_key(ex.question): str(ex.qid) for ex in held_out}
    records = []
    for predictor, value in state.items():
        for position, demo in enumerate((value or {}).get("demos") or [] if isinstance(value, dict) else []):
            question = _key(demo.get("question")) if isinstance(demo, dict) else ""
            record: dict[str, Any] = {"predictor": predictor, "position": position,
                      "source": "bootstrapped" if isinstance(demo, dict) and demo.get("augmented") else "labeled"}
            if question in train_ids:
                record["train_qid"] = train_ids[question]
            elif question in held:
                record["held_out_qid"] = held[question]
            else:
                record["source"] += " (no split question: a hop query or a written example)"
            records.append(record)
    return records


def refuse_held_out(records: list[dict[str, Any]]) -> None:
    shown = [r for r in records if "held_out_qid" in r]
    if shown:
        raise InputError(f"{len(shown)} demonstrations show a dev or test question (e.g. {shown[0]['held_out_qid']} in "
                         f"{shown[0]['predictor']}): demonstrations must come from train only")


STATE_FILE = "demos-state.json"


def state_fingerprint(state: dict[str, Any]) -> str:
    """A short hash of the demonstrations' state; trial logs are keyed by it so demos never mix."""
    return hashlib.sha1(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()[:12]


def load_or_compile(folder: Path, provenance: dict[str, Any], compile_state: Callable[[], dict[str, Any]],
                    say: Callable[[str], None] = print) -> dict[str, Any]:
    path = Path(folder) / STATE_FILE
    if path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("provenance") != provenance:
            raise InputError(f"{path} holds demonstrations compiled from {saved.get('provenance')}, not "
                             f"{provenance}; use another study folder or delete that file to compile again")
        say(f"reusing the demonstrations in {path}")
        return saved["state"]
    state = compile_state()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    partial.write_text(json.dumps({"provenance": provenance, "state": state}, default=str), encoding="utf-8")
    os.replace(partial, path)  # two workers compiling at once: the last complete file wins, none is torn
    return json.loads(path.read_text(encoding="utf-8"))["state"]


TELEPROMPTERS = ("bootstrap", "mipro", "labeled", "none")
# those that run the program on the training questions (their traces become demonstrations), so those questions must
# retrieve from their own corpus; the others only show the training examples' labels
RUN_ON_TRAIN = ("bootstrap", "mipro")


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
        raise ValueError(f"the demonstration threshold (demo_threshold) must be in (0, 1], got {threshold}")


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
