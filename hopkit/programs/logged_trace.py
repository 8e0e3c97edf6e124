"""How a typed trace (a method folder's ``trace.py``) is kept in a run log and read back: its fields as JSON, the
method named, and the answer steps' records at the top level, where every method keeps them (hopkit/additions/)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from hopkit.additions.answer_steps import ORDER


def logged(method: str, trace: Any) -> dict[str, Any]:
    """The log's JSON of a trace dataclass whose ``answer_steps`` field holds the answer steps' records."""
    row = asdict(trace)
    steps = row.pop("answer_steps")
    return {"method": method, **row, **steps}


def answer_steps_in(trace: dict[str, Any]) -> dict[str, Any]:
    """The answer steps' records of a logged trace."""
    return {name: trace[name] for name in ORDER if name in trace}
