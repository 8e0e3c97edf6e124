"""The optimizer's search space, read from the knobs each method declares (hopkit/knobs/declared.py).

``suggest`` is the one path from a trial to a program's knobs, each value checked as a user's is. A saved program
records the knobs its trial chose, and ``build_program`` rebuilds it from them, the same call the trials made, so
a tuned program and a deployed one cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import optuna

from hopkit.errors import InputError
from hopkit.knobs import KNOBS, Knob, check_names
from hopkit.programs.registry import get_method


def search_space(method: str, only: Iterable[str] | None = None, fixed: dict[str, Any] | None = None,
                 compiled_demos: bool = False) -> dict[str, Knob]:
    """The method's declared knobs, minus those fixed by the caller; ``only`` narrows it further.

    With ``compiled_demos`` (a teleprompter's demonstrations replace every predictor's built ones,
    compiled once with the papers' knobs), a knob that only shapes the built demonstrations (IRCoT's
    M) changes nothing, so it is left out of the space rather than spending trials."""
    group = get_method(method).knob_group
    declared = KNOBS.get(group or "", {})
    if not declared:
        raise InputError(f"method {method!r} declares no knobs to tune")
    wanted = list(only) if only else list(declared)
    check_names(group or "", wanted, owner=method)
    check_names(group or "", list(fixed or {}), owner=method)
    inert = [name for name in wanted if compiled_demos and declared[name].builds_demos]
    if only and inert:
        raise InputError(f"{', '.join(inert)} only shape the demonstrations built from train, which compiled "
                         "demonstrations replace; tune them with no compiled demonstrations (demos none)")
    return {name: declared[name] for name in wanted if name not in (fixed or {}) and name not in inert}


def suggest(trial: optuna.trial.BaseTrial, space: dict[str, Knob]) -> dict[str, Any]:
    """The knob values for this trial: sampled by a Trial, or replayed by a FixedTrial."""
    values: dict[str, Any] = {}
    for name, knob in space.items():
        if knob.choices is not None:
            values[name] = trial.suggest_categorical(name, list(knob.choices))
        elif knob.low is None or knob.high is None:
            raise ValueError(f"knob {name} has neither choices nor a range to search")
        elif isinstance(knob.default, int) and not isinstance(knob.default, bool):
            values[name] = trial.suggest_int(name, int(knob.low), int(knob.high), step=int(knob.step or 1))
        else:
            values[name] = trial.suggest_float(name, float(knob.low), float(knob.high))
        values[name] = knob.check(values[name])  # a replayed (FixedTrial) value is checked as a user's is
    return values


def profile_defaults(space: dict[str, Knob], profile: str = "paper", reader: Any = None) -> dict[str, Any]:
    """Trial 0 of every study: the profile's value of each searched knob (``paper``: the papers' settings).
    theta left to the reader (None) is the reader's calibrated value, as a program with that reader uses."""
    values = {name: knob.value_in(profile) for name, knob in space.items()}
    if "theta" in values and values["theta"] is None:
        from hopkit.knobs.theta import default_theta

        values["theta"] = default_theta(reader)
    return values
