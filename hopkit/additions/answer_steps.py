"""The answer steps' common facts: their order, and the counters a trace's records give.

The steps themselves are beside this file (short form, the yes/no check with its restatement rule, the
either-or check and the date comparison); ``hopkit.programs.answer_steps.AnswerSteps`` runs the ones a
program's knobs turn on.
"""

from __future__ import annotations

ORDER = ("short_form", "yes_no_check", "option_check", "date_comparison")


COUNTERS = {"short_form": "short_form_calls", "yes_no_check": "yes_no_checks", "option_check": "option_checks"}


def step_counts(records: dict[str, dict]) -> dict[str, int]:
    """A trace's counters of the answer steps: the LM calls each made, and whether the dates were compared."""
    counts = {counter: called(records.get(step)) for step, counter in COUNTERS.items()}
    counts["date_comparisons"] = int(records.get("date_comparison") is not None)  # no LM call: read
    return counts


def called(record: dict | None) -> int:
    """1 when a step's record shows it made its LM call, else 0 (for the trace's counters)."""
    return int(bool((record or {}).get("call")))

