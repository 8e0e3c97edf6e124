"""Reading back what the answer steps did, from any method's trace: each step's record (before, after and how it
decided), wherever the method keeps it, and one line that says why the answer changed. Used by the report's
traces and by ``hopkit firings``."""

from __future__ import annotations

from hopkit.additions.answer_steps import ORDER

LABELS = {"short_form": "short form", "yes_no_check": "yes/no check", "option_check": "either-or check",
          "date_comparison": "date comparison"}


def step_records(trace: object) -> list[tuple[str, dict]]:
    """Every (step, record) that has a before and an after, in trace order."""
    found: list[tuple[str, dict]] = []
    if isinstance(trace, dict):
        for key, value in trace.items():
            if key in ORDER and isinstance(value, dict) and "before" in value and "after" in value:
                found.append((key, value))
            else:
                found += step_records(value)
    elif isinstance(trace, list):
        for value in trace:
            found += step_records(value)
    return found


def why(step: str, record: dict) -> str:
    """How the step reached its answer, in a few words."""
    if record.get("parse_error"):
        return "its LM output could not be read; the answer was kept"
    if step == "short_form":
        if record.get("rejected"):
            return f"the LM's phrase {record['rejected']!r} is not part of the answer; the answer was kept"
        return "an LM call cut a sentence answer to the phrase that answers"
    if step == "yes_no_check":
        if record.get("restated"):
            return "the answer restates the question's claim, read as yes or no (no LM call)"
        if record.get("unresolved"):
            return "an LM call could not decide yes or no; the answer was kept"
        return "an LM call decided yes or no from the reasoning" if record.get("call") else \
            "the answer already reads as yes or no"
    if step == "option_check":
        options = " / ".join(record.get("options") or [])
        return (f"an LM call picked one of the options ({options})" if record.get("call")
                else f"the answer names one of the options ({options})")
    if step == "date_comparison":
        if record.get("unsure"):
            return f"dates read {record.get('dates')}: {record['unsure']}; the answer was kept"
        return f"dates read {record.get('dates')}, compared in code ({record.get('direction')} wins)"
    return ""
