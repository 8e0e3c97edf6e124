"""Self-Ask's trace, typed: what the program records, what the log keeps (``to_dict``), and what the views read back
from a logged row (``from_dict``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hopkit.programs.logged_trace import answer_steps_in, logged

METHOD = "self-ask"


@dataclass(frozen=True)
class FollowUp:
    follow_up: str
    retrieved: list[str]  # the paragraphs retrieved for it (none without IR)
    parse: str  # "typed", "loose" (read by its shape) or "failed"
    answer: str  # the intermediate answer


@dataclass(frozen=True)
class SelfAskTrace:
    profile: str
    knobs: dict[str, Any]
    use_ir: bool
    steps: list[FollowUp]
    finished_by: str  # "model": it stated the final answer; "turns": the answer was asked for
    answer_before_steps: str
    answer_steps: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return logged(METHOD, self)

    @classmethod
    def from_dict(cls, trace: dict[str, Any]) -> SelfAskTrace:
        return cls(profile=str(trace.get("profile", "")), knobs=dict(trace.get("knobs") or {}),
                   use_ir=bool(trace.get("use_ir", True)), steps=[FollowUp(**s) for s in trace.get("steps") or []],
                   finished_by=str(trace.get("finished_by", "")),
                   answer_before_steps=str(trace.get("answer_before_steps") or ""),
                   answer_steps=answer_steps_in(trace))
