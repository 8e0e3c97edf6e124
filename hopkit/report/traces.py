"""Each question's trace as HTML: the method's own view of it (its folder's ``views.py``: SearChain's
Tree-of-Reasoning, ToR's review tree and evidence pool, IRCoT's interleaved steps, the baselines' retrieved list),
then the answer steps that acted."""

from __future__ import annotations

from typing import Any

from hopkit.programs.registry import views_of
from hopkit.programs.views import Passages
from hopkit.text.markup import badge, tag, text


def render_trace(trace: dict[str, Any] | None, gold: set[str], passages: Passages | None = None) -> str:
    if not trace:
        return tag("p", "no trace", class_="muted")
    known = passages or {}
    return views_of(trace).html(trace, lambda pid: _pid(pid, gold, known)) + answer_steps(trace)


def citation(pid: str, gold: set[str], passages: Passages | None = None) -> str:
    """A paragraph by its title (its pid when the title is unknown) that opens to the paragraph's text."""
    known = (passages or {}).get(pid)
    kind = "pid gold" if pid in gold else "pid"
    if known is None:
        return tag("span", text(pid), class_=kind)
    title, body = known
    return tag("details", tag("summary", text(title), class_=kind, title=pid) + tag("div", text(body), class_="para"),
               class_="cite")


def _pid(pid: str | None, gold: set[str], passages: Passages) -> str:
    if not pid:
        return ""
    return citation(pid, gold, passages)


def answer_steps(trace: dict) -> str:
    """Every answer step that acted (the additions room's checks and short form): before, after and why."""
    from hopkit.additions.records import LABELS, step_records, why

    items = []
    for step, record in step_records(trace):
        changed = str(record.get("before")) != str(record.get("after"))
        items.append(tag("li", badge(LABELS.get(step, step), "check-changed" if changed else "check-kept") + " "
                         + tag("span", text(record.get("before")), class_="before") + " &rarr; "
                         + tag("span", text(record.get("after")), class_="after") + " "
                         + tag("span", "(" + text(why(step, record)) + ")", class_="muted"),
                         class_="answer-step", data_step=step, data_changed=str(changed).lower()))
    return tag("div", tag("h4", "Answer steps") + tag("ul", "".join(items)), class_="answer-steps") if items else ""
