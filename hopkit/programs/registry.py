"""Methods by name: what each needs (retriever, reader), how it is built, and how its trace is read. Each method's
folder declares its entries (hopkit/programs/<m>/method.py); ``register_method`` adds one of a user's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import dspy

from hopkit.data.examples import Dataset
from hopkit.errors import InputError, UnknownNameError
from hopkit.knobs import KNOBS, check_profile, check_values
from hopkit.knobs.knob import Knob, Profile
from hopkit.programs.baselines import method as baselines
from hopkit.programs.ircot import method as ircot
from hopkit.programs.iter_retgen import method as iter_retgen
from hopkit.programs.method import Method
from hopkit.programs.react import method as react
from hopkit.programs.searchain import method as searchain
from hopkit.programs.self_ask import method as self_ask
from hopkit.programs.tree_of_reviews import method as tree_of_reviews
from hopkit.programs.views import NO_VIEWS, TraceViews
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever
from hopkit.tasks import DEFAULT_TASK, TASK_INNER, Task, apply_task
from hopkit.variants import Variant

# each method's folder declares its registry entries and its papers' ablations (hopkit/programs/<m>/method.py)
FOLDERS = (baselines, ircot, searchain, tree_of_reviews, self_ask, react, iter_retgen)
METHODS: dict[str, Method] = {method.name: method for folder in FOLDERS for method in folder.METHODS}
ABLATIONS: dict[str, list[Variant]] = {name: variants for folder in FOLDERS
                                       for name, variants in folder.ABLATIONS.items()}


def register_method(method: Method, knobs: Mapping[str, Knob] | None = None,
                    ablations: Sequence[Variant] = ()) -> Method:
    """A method of your own, in one line: its registry entry, its knobs (declared as hopkit's are, under
    ``method.knob_group``) and its ablation variants. Every verb and the Python API then run it by name
    (docs/extending.md)."""
    known = METHODS.get(method.name)
    if known is not None and known is not method:
        raise InputError(f"a method named {method.name!r} is registered already; give yours another name")
    if knobs is not None:
        if not method.knob_group:
            raise InputError(f"method {method.name!r} brings knobs but names no knob_group to declare them under")
        if method.knob_group in KNOBS and KNOBS[method.knob_group] is not knobs and known is None:
            raise InputError(f"knob group {method.knob_group!r} is declared already; name your method's own")
        KNOBS[method.knob_group] = dict(knobs)
    METHODS[method.name] = method
    if ablations:
        ABLATIONS[method.name] = list(ablations)
    return method


def get_method(name: str) -> Method:
    if name not in METHODS:
        raise UnknownNameError("method", name, list(METHODS))
    return METHODS[name]


def ablations(method: str) -> list[Variant]:
    """The method's declared ablation variants, the full method first."""
    if method not in ABLATIONS:
        raise InputError(f"no declared ablations for {method!r}; use one of {', '.join(ABLATIONS)}, or your own "
                         "variants")
    return list(ABLATIONS[method])


def views_of(trace: dict | None) -> TraceViews:
    """The views of the method that wrote ``trace`` (its ``method``); a trace of no known method gets the
    defaults."""
    method = METHODS.get(str((trace or {}).get("method", "")))
    return method.views if method is not None else NO_VIEWS


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
        saved = saved_predictor(state or {}, predictor_name)
        theirs = [f.get("prefix", "") for f in (saved or {}).get("signature", {}).get("fields", [])]
        mine = [f.json_schema_extra.get("prefix", "") for f in predictor.signature.fields.values()]
        if saved and (not theirs or theirs == mine):
            predictor.load_state(saved)
    return apply_task(program, task, method.views.statements) if task else program


def saved_predictor(state: dict[str, Any], name: str) -> Any:
    """A predictor's saved state, whether it was dumped from the method's program or from that program answering a
    task (``hopkit.tasks.TaskProgram`` holds it as ``program``, so DSPy names its predictors ``program.NAME``)."""
    return state.get(name, state.get(f"{TASK_INNER}.{name}"))


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
