"""Methods by name: what each needs (retriever, reader) and how it is built."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import dspy

from hopkit.data.examples import Dataset
from hopkit.errors import InputError, UnknownNameError
from hopkit.knobs import KNOBS, check_profile, check_values
from hopkit.knobs.knob import Profile
from hopkit.programs.baselines import NoR, OneR
from hopkit.programs.ircot import IRCoT
from hopkit.programs.searchain import SearChain
from hopkit.programs.tree_of_reviews import TreeOfReviews
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever
from hopkit.tasks import DEFAULT_TASK, Task, apply_task


@dataclass(frozen=True)
class Method:
    name: str
    description: str
    knob_group: str | None
    needs_retriever: bool
    build: Callable[..., dspy.Module]
    needs_reader: bool = False
    uses_demos: bool = False
    # a baseline that reads with IRCoT's few-shot reader as the IRCoT paper's do: demonstrations under the paper
    # profile (or when the user names a source), zero-shot by default under hopkit's
    reader_demos_only: bool = False


METHODS: dict[str, Method] = {
    m.name: m
    for m in [
        Method("nor", "no retrieval, direct answer", None, False,
               lambda r, rd, t, profile="hopkit": NoR("direct", train=t, profile=profile), uses_demos=True,
               reader_demos_only=True),
        Method("nor-cot", "no retrieval, chain-of-thought answer", None, False,
               lambda r, rd, t, profile="hopkit": NoR("cot", train=t, profile=profile), uses_demos=True,
               reader_demos_only=True),
        Method("oner", "one retrieval with the question, direct answer", "oner", True,
               lambda r, rd, t, **kw: OneR(r, reasoning="direct", train=t, **kw), uses_demos=True,
               reader_demos_only=True),
        Method("oner-cot", "one retrieval with the question, chain-of-thought answer", "oner", True,
               lambda r, rd, t, **kw: OneR(r, reasoning="cot", train=t, **kw), uses_demos=True,
               reader_demos_only=True),
        Method("ircot", "IRCoT: interleaved retrieval and reasoning, then a CoT reader", "ircot", True,
               lambda r, rd, t, **kw: _ircot(r, t, **kw), uses_demos=True),
        Method("ircot-direct", "IRCoT with a direct reader", "ircot", True,
               lambda r, rd, t, **kw: _ircot(r, t, **{"answer_reader": "direct", **kw}), uses_demos=True),
        Method("ircot-noreader", "IRCoT without a separate reader (answer from the chain)", "ircot", True,
               lambda r, rd, t, **kw: _ircot(r, t, **{"answer_reader": "none", **kw}), uses_demos=True),
        Method("searchain", "SearChain: Chain-of-Query verified and completed by IR, traced final content",
               "searchain", True, lambda r, rd, t, **kw: _searchain(r, rd, t, **kw), needs_reader=True,
               uses_demos=True),
        Method("searchain-noir", "SearChain without IR: one Chain-of-Query, its own answer", "searchain", False,
               lambda r, rd, t, **kw: _searchain(None, None, t, use_ir=False, **kw), uses_demos=True),
        Method("searchain-noverify", "SearChain without verification (completion only)", "searchain", True,
               lambda r, rd, t, **kw: _searchain(r, rd, t, verify=False, **kw), needs_reader=True, uses_demos=True),
        Method("searchain-nocomplete", "SearChain without completion (verification only)", "searchain", True,
               lambda r, rd, t, **kw: _searchain(r, rd, t, complete=False, **kw), needs_reader=True, uses_demos=True),
        Method("tor", "Tree of Reviews: paragraph tree with review, pruning, expansion, evidence fusion", "tor", True,
               lambda r, rd, t, **kw: _tor(r, t, **kw), uses_demos=True),
        Method("cor", "Chain of Reviews: the ToR review on one path that accumulates every paragraph", "tor", True,
               lambda r, rd, t, **kw: _tor(r, t, single_path=True, **kw), uses_demos=True),
    ]
}


def _ircot(retriever: Retriever, train: Dataset | None, **knobs: Any) -> IRCoT:
    return IRCoT(retriever, train=train, **knobs)


def _searchain(retriever: Retriever | None, reader: Reader | None, train: Dataset | None, **knobs: Any) -> SearChain:
    return SearChain(retriever, reader, train=train, **knobs)


def _tor(retriever: Retriever, train: Dataset | None, **knobs: Any) -> TreeOfReviews:
    return TreeOfReviews(retriever, train=train, **knobs)


def get_method(name: str) -> Method:
    if name not in METHODS:
        raise UnknownNameError("method", name, list(METHODS))
    return METHODS[name]


def build_program(name: str, retriever: Retriever | None = None, reader: Reader | None = None,
                  train: Dataset | None = None, profile: Profile = "hopkit", task: Task | None = None,
                  state: dict[str, Any] | None = None, **knobs: Any) -> dspy.Module:
    """The named method over the given retriever and reader: the profile's knobs (``paper``: the paper's
    settings, every addition off; ``hopkit``: hopkit's defaults) with the given ones on top, validated.

    ``train`` (examples and their corpus) supplies in-context demonstrations to methods that use them. ``task``
    sets its knob defaults under the given knobs and rewords the program's answer steps (``hopkit.tasks``);
    ``state`` is a saved program's DSPy state (demonstrations, instructions), loaded into each predictor whose
    fields match the saved one's (a knob that switched a signature leaves that predictor its own).
    """
    method = get_method(name)
    checked = check_knobs(name, task_knobs(name, task, knobs) if task else knobs)
    check_profile(profile)
    if method.needs_retriever and retriever is None:
        raise InputError(f"method {name!r} needs a retriever")
    if method.needs_reader and reader is None:
        raise InputError(f"method {name!r} needs a reader")
    program = method.build(retriever, reader, of_task_kind(train, task) if task else train, profile=profile, **checked)
    for predictor_name, predictor in program.named_predictors() if state else ():
        saved = state.get(predictor_name)
        theirs = [f.get("prefix", "") for f in (saved or {}).get("signature", {}).get("fields", [])]
        mine = [f.json_schema_extra.get("prefix", "") for f in predictor.signature.fields.values()]
        if saved and (not theirs or theirs == mine):
            predictor.load_state(saved)
    return apply_task(program, task) if task else program


@dataclass(frozen=True)
class ProgramParts:
    """What a run's programs are built over, assembled once: the method, its retriever and reader, its
    demonstrations, profile and task, a saved program's DSPy state, and the knobs every setting holds. ``program``
    builds one program per setting over them: a run's one, a grid's or a study's per setting, an ablation's per
    variant. Every door builds its programs here, so a method is built the same way whichever door runs it."""

    method: str
    retriever: Retriever | None = None
    reader: Reader | None = None
    train: Dataset | None = None
    profile: Profile = "hopkit"
    task: Task | None = None
    state: dict[str, Any] | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def program(self, state: dict[str, Any] | None = None, **knobs: Any) -> dspy.Module:
        """The method with the fixed knobs and these on top (``state``: DSPy state to load, over the parts' own)."""
        method = get_method(self.method)
        return build_program(self.method, self.retriever if method.needs_retriever else None,
                             self.reader if method.needs_reader else None, self.train if method.uses_demos else None,
                             profile=self.profile, task=self.task, state=state if state is not None else self.state,
                             **{**self.fixed, **knobs})


def of_task_kind(train: Dataset | None, task: Task) -> Dataset | None:
    """The training examples of the task's own kind, where there are any (a fact-checking run shows claims, not the
    multi-hop questions a mixed source adds for shapes it lacks); else all of them."""
    if train is None:
        return None
    own = [example for example in train.examples if task.own_kind(example)]
    return replace(train, examples=own) if own and len(own) < len(train.examples) else train


def task_knobs(method: str, task: Task, knobs: dict) -> dict:
    """The task's knob defaults for a method, under the user's: SearChain verifies long-form answers
    by ROUGE-L against alpha (its answer_form), a long-form answer is never cut to yes or no, and only the default
    task's answers are cut to (or picked by date among) the two named options (a fact-check claim "A or B ..." is
    answered with a label)."""
    declared = KNOBS.get(get_method(method).knob_group or "", {})
    defaults: dict = {}
    if task.answer_form != "short":
        defaults.update({name: value for name, value in (("answer_form", task.answer_form), ("yes_no_check", False))
                         if name in declared})
    if task.name != DEFAULT_TASK:  # a claim "A or B ..." has a label, not an option
        defaults.update({name: False for name in ("option_check", "date_comparison") if name in declared})
    shots = PLAN_SHOTS.get((method, task.name), PLAN_SHOTS.get(("*", task.name)))
    if "plan_shots" in declared and shots:
        defaults["plan_shots"] = shots
    return {**defaults, **knobs}


# SearChain's Table 8: Chain-of-Query examples per task where it shows other than two (FEVER: 4; StrategyQA, a yes/no
# task, 6 without IR)
PLAN_SHOTS = {("*", "fact-check"): 4, ("searchain-noir", "yes-no"): 6}


def check_knobs(name: str, knobs: dict[str, Any]) -> dict[str, Any]:
    """The knob overrides, each checked against the method's declared knobs (name, type, range, choices)."""
    return check_values(get_method(name).knob_group or "", knobs, owner=name)
