"""ITER-RETGEN's trace, typed: what the program records, what the log keeps (``to_dict``), and what the views read
back from a logged row (``from_dict``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hopkit.programs.logged_trace import answer_steps_in, logged

METHOD = "iter-retgen"


@dataclass(frozen=True)
class Turn:
    turn: int
    query: str  # the question, then the question and the last response
    retrieved: list[str]  # this turn's paragraphs
    reasoning: str
    answer: str
    parse: str  # "typed" or "failed"


@dataclass(frozen=True)
class IterRetGenTrace:
    profile: str
    knobs: dict[str, Any]
    turns: list[Turn]
    answer_before_steps: str
    answer_steps: dict[str, Any] = field(default_factory=dict)  # each answer step's record, where one acted

    def to_dict(self) -> dict[str, Any]:
        return logged(METHOD, self)

    @classmethod
    def from_dict(cls, trace: dict[str, Any]) -> IterRetGenTrace:
        return cls(profile=str(trace.get("profile", "")), knobs=dict(trace.get("knobs") or {}),
                   turns=[Turn(**turn) for turn in trace.get("turns") or []],
                   answer_before_steps=str(trace.get("answer_before_steps") or ""),
                   answer_steps=answer_steps_in(trace))
