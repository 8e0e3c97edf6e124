"""ReAct's trace, typed: what the program records, what the log keeps (``to_dict``), and what the views read back
from a logged row (``from_dict``). The observations' text is left out of the log: their paragraphs' ids are kept."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hopkit.programs.logged_trace import answer_steps_in, logged

METHOD = "react"


@dataclass(frozen=True)
class Search:
    thought: str
    query: str
    parse: str  # "typed", "loose" (read by its shape) or "failed"
    retrieved: list[str]  # the observation's paragraphs


@dataclass(frozen=True)
class ReActTrace:
    profile: str
    knobs: dict[str, Any]
    steps: list[Search]
    thoughts: list[str]  # every thought, the finishing one included
    finished_by: str  # "model": Finish[...]; "turns": the answer was asked for
    answer_before_steps: str
    answer_steps: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return logged(METHOD, self)

    @classmethod
    def from_dict(cls, trace: dict[str, Any]) -> ReActTrace:
        return cls(profile=str(trace.get("profile", "")), knobs=dict(trace.get("knobs") or {}),
                   steps=[Search(**s) for s in trace.get("steps") or []], thoughts=list(trace.get("thoughts") or []),
                   finished_by=str(trace.get("finished_by", "")),
                   answer_before_steps=str(trace.get("answer_before_steps") or ""),
                   answer_steps=answer_steps_in(trace))
