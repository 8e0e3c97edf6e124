"""Profiles: the ``paper`` settings of a method (every addition off) or ``hopkit``'s defaults, with the
knobs a caller sets explicitly on top. Every entry point resolves knobs here, so one value is checked
one way everywhere."""

from __future__ import annotations

from typing import Any

from hopkit.errors import UnknownNameError
from hopkit.knobs.declared import KNOBS
from hopkit.knobs.knob import Knob, check_profile, show


def declared(group: str) -> dict[str, Knob]:
    return KNOBS.get(group, {})


def check_names(group: str, names: list[str], owner: str | None = None) -> None:
    """One line per unknown knob name, with "did you mean" and the knobs there are."""
    known = declared(group)
    for name in names:
        if name not in known:
            raise UnknownNameError("knob", name, list(known), f"{owner or group!r} has no knob {name!r}{{hint}}; "
                                   f"its knobs: {', '.join(known) or 'none'}")


def check_values(group: str, knobs: dict[str, Any], owner: str | None = None) -> dict[str, Any]:
    """The given knobs, names and values checked against the declarations (nothing filled in)."""
    check_names(group, list(knobs), owner)
    known = declared(group)
    return {name: known[name].check(value) for name, value in knobs.items()}


def profile_values(group: str, profile: str) -> dict[str, Any]:
    check_profile(profile)
    return {name: knob.value_in(profile) for name, knob in declared(group).items()}


def resolve(group: str, profile: str, given: dict[str, Any], owner: str | None = None) -> dict[str, Any]:
    """Every knob of the group: the given value where one is given (None: not given), else the profile's."""
    values = profile_values(group, profile)
    values.update(check_values(group, {k: v for k, v in given.items() if v is not None}, owner))
    return values


def knob_help(group: str) -> str:
    """The knobs as a docstring section: name, default, paper value, range, what it does."""
    lines = ["Knobs (hopkit/knobs/declared.py; None takes the profile's value, ``profile`` is hopkit or paper):"]
    for knob in declared(group).values():
        mark = " [addition]" if knob.addition else ""
        lines.append(f"    {knob.name}: hopkit {show(knob.default)}, paper {show(knob.paper_value)}, "
                     f"{knob.range_text}{mark}. {knob.doc}.")
    return "\n".join(lines)

