"""Tasks: what the answer is, how the answer steps are told, SearChain's answer form, and the metrics.

One declared setting chooses them for every method (``hopkit eval --task``, or inferred from the
dataset), instead of a fork of each program: ``apply_task`` rewords the program's answer steps and
wraps its answer in the task's canonical form (a claim's label, a yes/no), keeping the raw answer in
the trace. SearChain's Table 1 tasks: multi-hop QA (HotpotQA, MuSiQue, 2Wiki, StrategyQA), slot filling
(zsRE, T-REx), fact checking (FEVER) and long-form QA (ELI5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dspy

from hopkit.errors import UnknownNameError
from hopkit.text.labels import claim_label, yes_no


@dataclass(frozen=True)
class Task:
    name: str
    answer: str  # what the answer is, in the signatures' words
    instruction: str  # added to every answer step's instructions
    answer_form: str  # SearChain's verification: short (containment of g) or long (ROUGE-L against alpha)
    metrics: tuple[str, ...]  # the first is the task's metric, named in every table
    canonical: Callable[[str], str | None] | None = None
    right_metric: str | None = None  # an answer is right when it scores 1 on it; None: graded only (long form)

    def is_right(self, metrics: dict) -> bool | None:
        """Whether a row's answer is right by the task's own metric; None where the task only grades."""
        if self.right_metric is None or self.right_metric not in metrics:
            return None
        return float(metrics[self.right_metric]) >= 1.0

    def own_kind(self, example: Any) -> bool:
        """Whether a training example is of this task's kind: its answer reads in the task's form (a claim's label, a
        yes/no), or its question is a slot; every example is a multi-hop or long-form one's."""
        if self.canonical is not None:
            answers = getattr(example, "answers", None) or [""]
            return self.canonical(str(answers[0])) is not None
        if self.name == "slot-filling":
            return "[SEP]" in str(getattr(example, "question", ""))
        return True

    def finish(self, answer: str) -> str:
        """The answer in the task's form; an answer with no reading stays as it was (and scores as wrong)."""
        if self.canonical is None:
            return answer
        return self.canonical(answer) or answer


TASKS: dict[str, Task] = {t.name: t for t in [
    Task("multihop-qa", "a short answer phrase", "", "short", ("em", "f1", "cover_em", "recall@15"),
         right_metric="em"),
    Task("yes-no", "yes or no", "The question asks yes or no: the answer is yes or no, nothing else.", "short",
         ("em", "cover_em", "recall@15"), yes_no, right_metric="em"),
    Task("fact-check", "SUPPORTS or REFUTES",
         "The question is a claim to check against the evidence: the answer is SUPPORTS if the evidence shows the "
         "claim true and REFUTES if it shows it false, nothing else.", "short",
         ("label_acc", "cover_em", "recall@15"), claim_label, right_metric="label_acc"),
    Task("slot-filling", "the entity that fills the slot",
         "The question is 'subject [SEP] relation': the answer is the entity that the relation links the subject "
         "to (for 'Ada Pell [SEP] place of birth', the place where Ada Pell was born).", "short",
         ("cover_em", "em", "f1", "recall@15"), right_metric="cover_em"),
    Task("long-form", "a few sentences",
         "The answer explains in a few sentences, drawing its facts from the evidence.", "long",
         ("rouge_l", "recall@15")),
]}
DEFAULT_TASK = "multihop-qa"
_ANSWER_FIELDS = ("answer", "final_answer")


def get_task(name: str) -> Task:
    if name not in TASKS:
        raise UnknownNameError("task", name, list(TASKS))
    return TASKS[name]


def reword(program: dspy.Module, task: Task) -> int:
    """Add the task's instruction to every predictor that writes an answer; returns how many changed."""
    if not task.instruction:
        return 0
    changed = 0
    for _, predictor in program.named_predictors():
        signature = predictor.signature
        fields = [name for name in _ANSWER_FIELDS if name in signature.output_fields]
        if not fields:
            continue
        signature = signature.with_instructions(f"{signature.instructions.rstrip()} {task.instruction}")
        for name in fields:
            signature = signature.with_updated_fields(name, desc=task.answer)
        predictor.signature = signature
        changed += 1
    return changed


# A method's other statements of its answer, read from its trace by its own views (``statements`` in
# hopkit/programs/views.py), by name. A closed task reads a label from the short ones, in order, when the answer has
# none (SearChain's tracing step writes its own answer beside the chain's planned one); a long-form task may take
# the RESPONSE instead of the answer (ToR's fusion).
Statements = Callable[[dict], dict[str, str]]
RESPONSE = "response"


def no_statements(trace: dict) -> dict[str, str]:
    return {}


# the attribute a TaskProgram holds its method's program in: DSPy names the inner predictors "program.NAME"
TASK_INNER = "program"


class TaskProgram(dspy.Module):
    """A program answering in a task's form: its answer steps reworded, its answer made canonical."""

    def __init__(self, program: dspy.Module, task: Task, statements: Statements = no_statements) -> None:
        super().__init__()
        self.program, self.task, self.statements = program, task, statements  # self.program: TASK_INNER
        reword(program, task)

    def forward(self, question: str) -> dspy.Prediction:
        prediction = self.program(question=question)
        raw = str(getattr(prediction, "answer", "") or "")
        trace = dict(getattr(prediction, "trace", None) or {})
        statements = self.statements(trace)
        if self.task.answer_form == "long":  # the explanation is the answer, whichever field the LM wrote it in
            raw, source = fullest_statement(raw, statements.get(RESPONSE, ""))
            trace.update({"long_answer_from": source} if source != "answer" else {})
        raw, source = self.readable_answer(raw, statements)
        trace.update({"answer_read_from": source} if source != "answer" else {})
        finished = self.task.finish(raw)
        trace.update({"task": self.task.name, **({"raw_answer": raw} if finished != raw else {})})
        prediction.answer, prediction.trace = finished, trace
        return prediction

    def readable_answer(self, answer: str, statements: dict[str, str]) -> tuple[str, str]:
        """The answer, or, when a closed task (a label, yes/no) finds no reading in it, the program's other short
        statement of its answer that has one (SearChain: a chain planned "Ada Pell" as its final answer for a
        claim, while its tracing step, told the task, wrote SUPPORTS)."""
        canonical = self.task.canonical
        if canonical is None or canonical(answer) is not None:
            return answer, "answer"
        for name, other in statements.items():
            if name != RESPONSE and canonical(other) is not None:
                return other, name
        return answer, "answer"



def fullest_statement(answer: str, response: str) -> tuple[str, str]:
    """A long-form answer from a program that writes a response and an answer (ToR's fusion): the one with
    more words, since the 1.5B pack often puts the explanation in the response and a name in the answer."""
    if len(response.split()) > len(answer.split()):
        return response, "response"
    return answer, "answer"


def apply_task(program: dspy.Module, task: str | Task, statements: Statements = no_statements) -> dspy.Module:
    """The program answering in the task's form; ``statements``: the method's other statements of its answer."""
    task = get_task(task) if isinstance(task, str) else task
    return program if task.name == DEFAULT_TASK else TaskProgram(program, task, statements)


def tuned_metric(task: Task) -> str:
    """What an optimizer tunes for the task unless told: F1, graded and the papers' headline, where the task scores
    it; else the task's first metric (label accuracy for claims, ROUGE-L for long answers)."""
    return "f1" if "f1" in task.metrics else task.metrics[0]


def task_metrics(task: Task, examples: list) -> list[str]:
    """The task's metrics; recall@15 only where the examples mark gold paragraphs (KILT rows do not)."""
    has_gold = any(getattr(example, "gold_pids", None) for example in examples)
    return [name for name in task.metrics if name != "recall@15" or has_gold]
