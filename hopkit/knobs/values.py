"""A program's resolved knobs as one read-only object: ``self.knobs.k`` where a knob is used, so that a program
names each knob once, and its constructor takes them as ``**knobs`` (the signature ``help()`` shows is generated
from hopkit/knobs/declared.py by ``hopkit.programs.documented``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from hopkit.knobs.profiles import resolve


class KnobValues(Mapping[str, Any]):
    """Every knob of a group, resolved for a profile: read as attributes (``knobs.k``) or as a mapping."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # copy and pickle probe for hooks before __init__ has run
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no knob {name!r}; the knobs: {', '.join(self._values)}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a program's knobs are read-only; build the program with the value instead")

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __reduce__(self) -> tuple:
        return KnobValues, (self._values,)

    def __copy__(self) -> KnobValues:
        return self  # read-only, and every value is a scalar

    def __deepcopy__(self, memo: dict) -> KnobValues:
        return self

    def __repr__(self) -> str:
        return f"KnobValues({self._values!r})"

    def replace(self, **changes: Any) -> KnobValues:
        """A copy with some values changed (a value a program decides from its parts, like SearChain's theta)."""
        return KnobValues({**self._values, **changes})


def program_knobs(group: str, profile: str, given: Mapping[str, Any], owner: str) -> KnobValues:
    """The knobs a program's constructor was given (None: not given) over its profile's values, checked."""
    return KnobValues(resolve(group, profile, dict(given), owner=owner))
