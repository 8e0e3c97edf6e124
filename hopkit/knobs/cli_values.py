"""``--set NAME=VALUE`` strings into typed values; the knob's own check then decides whether they fit."""

from __future__ import annotations

from hopkit.errors import InputError


def parse_knobs(pairs: list[str]) -> dict[str, bool | float | int | str | None]:
    """``["k=8", "answer_reader=direct", "verify=false", "theta=none"]`` -> typed values (bool, int, float,
    None, else str). A string where a number belongs is refused by the knob's check, in one line."""
    knobs: dict[str, bool | float | int | str | None] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InputError(f"--set expects name=value, got {pair!r}")
        knobs[name.strip()] = _value(value.strip())
    return knobs


def _value(value: str) -> bool | float | int | str | None:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    if value.lower() == "none":
        return None
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return value
