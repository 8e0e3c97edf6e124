"""One tunable knob: its default, its paper value, its range, and the one check every entry point uses.

The CLI (``--set``), the Python constructors, ``build_program``, ``load_program`` and the optimizer all
validate a value with ``Knob.check``, so a value is refused the same way, with the same one-line message,
wherever it comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from hopkit.errors import InputError, UnknownNameError

_AS_DEFAULT = object()  # a knob whose paper value is its default
PROFILES = ("hopkit", "paper")
Profile = Literal["hopkit", "paper"]


@dataclass(frozen=True)
class Knob:
    """A numeric knob has ``low``/``high`` (an integer one also ``step``); a categorical one ``choices``.

    ``paper`` is the value of the paper the method comes from (left out: the default is the paper's).
    ``addition`` marks a departure from the paper: its paper value turns it off. ``optional``: None is
    allowed and means "decided by another part" (theta: the reader's calibrated value)."""

    name: str
    default: Any
    doc: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: Sequence[Any] | None = None
    builds_demos: bool = False  # only shapes the demonstrations a program builds from train
    paper: Any = _AS_DEFAULT
    addition: bool = False
    optional: bool = False
    origin: str = ""  # where the default came from: the paper's section, or the data hopkit designed it on
    label: str = ""  # an addition's short name, for tables

    @property
    def paper_value(self) -> Any:
        return self.default if self.paper is _AS_DEFAULT else self.paper

    def value_in(self, profile: str) -> Any:
        check_profile(profile)
        return self.paper_value if profile == "paper" else self.default

    @property
    def kind(self) -> str:
        """bool, choice, int or float: what ``check`` accepts."""
        if self.choices is not None:
            return "bool" if all(isinstance(c, bool) for c in self.choices) else "choice"
        return "int" if self.step is not None else "float"

    @property
    def range_text(self) -> str:
        if self.choices is not None:
            return " | ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
        text = f"{_number(self.low)}..{_number(self.high)}"
        return text + (" or none" if self.optional else "")

    def check(self, value: Any) -> Any:
        """The value, typed, or a one-line InputError that says what the knob accepts."""
        if value is None and self.optional:
            return None
        kind = self.kind
        if kind == "bool":
            if not isinstance(value, bool):
                raise InputError(f"{self.name}={value!r} is not true or false")
            return value
        if kind == "choice":
            choices = tuple(self.choices or ())
            if value not in choices:
                raise UnknownNameError("value", str(value), [str(c) for c in choices],
                                       f"{self.name}={value!r} is not one of {', '.join(map(str, choices))}{{hint}}")
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            wanted = "an integer" if kind == "int" else "a number"
            raise InputError(f"{self.name}={value!r} is not a number; give {wanted} in {self.range_text}")
        if kind == "int":
            if isinstance(value, float) and not value.is_integer():
                raise InputError(f"{self.name}={value!r} is not an integer; give an integer in {self.range_text}")
            value = int(value)
        else:
            value = float(value)
        if self.low is not None and self.high is not None and not (self.low <= value <= self.high):
            raise InputError(f"{self.name}={value!r} is outside its range {self.range_text}")
        return value


def check_profile(profile: str) -> Profile:
    if profile not in PROFILES:
        raise UnknownNameError("profile", str(profile), list(PROFILES),
                               f"unknown profile {profile!r}{{hint}}; use one of {', '.join(PROFILES)}")
    return cast(Profile, profile)


def _number(value: float | None) -> str:
    return "-" if value is None else (str(int(value)) if float(value).is_integer() else str(value))


def show(value: Any) -> str:
    """A knob value as a person reads it and as ``--set`` takes it: true/false, none, else the value."""
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)
