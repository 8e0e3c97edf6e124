"""The answer steps a program runs on its final answer, composed in one place.

In order: ``short_form`` (a sentence answer cut to its answering phrase), ``yes_no_check`` (a value given
to a yes/no question decided as yes or no; with ``restatement``, a sentence that restates the question's
claim read as yes or no with no call), ``option_check`` (an either-or answer that names neither option
mapped to one) and ``date_comparison``. Each step is one of hopkit's additions (hopkit/additions/). A program
builds ``AnswerSteps`` from its resolved knobs and calls it once on its final answer; with every addition off
(the ``paper`` profile) it holds no step, runs no addition code and returns the answer as it came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dspy

from hopkit.additions.answer_steps import ORDER
from hopkit.additions.date_comparison import DateComparison
from hopkit.additions.option_check import OptionCheck
from hopkit.additions.short_form import ShortForm
from hopkit.additions.yes_no_check import YesNoCheck
from hopkit.lm.usage import current_usage


class AnswerSteps(dspy.Module):
    def __init__(self, short_form: bool = False, yes_no_check: bool = False, restatement: bool = False,
                 option_check: bool = False, date_comparison: bool = False) -> None:
        super().__init__()
        self.short_form = ShortForm() if short_form else None
        self.yes_no_check = YesNoCheck(restatement=restatement) if yes_no_check else None
        self.option_check = OptionCheck() if option_check else None
        self.date_comparison = DateComparison() if date_comparison else None

    @classmethod
    def from_knobs(cls, knobs: Mapping[str, Any]) -> AnswerSteps:
        """The steps a method's resolved knobs turn on (a knob the method lacks is off; the short form only cuts
        a short answer form)."""
        short = bool(knobs.get("short_form")) and knobs.get("answer_form", "short") == "short"
        return cls(short_form=short, yes_no_check=bool(knobs.get("yes_no_check")),
                   restatement=bool(knobs.get("restatement")), option_check=bool(knobs.get("option_check")),
                   date_comparison=bool(knobs.get("date_comparison")))

    @property
    def names(self) -> list[str]:
        return [name for name in ORDER if getattr(self, name) is not None]

    def forward(self, question: str, answer: str, reasoning: str = "",
                context: list[str] | None = None) -> tuple[str, dict[str, dict | None]]:
        """The answer to report, and each step's trace record, keyed by its knob (None: off, or it did not act)."""
        records: dict[str, dict | None] = dict.fromkeys(ORDER)
        for name in self.names:
            before = _calls()
            answer, record = getattr(self, name)(question, answer, reasoning, context)
            if record is not None:
                records[name] = {**record, "lm_calls": _calls() - before}
        return answer, records


def _calls() -> int:
    usage = current_usage()
    return usage.lm_calls if usage else 0
