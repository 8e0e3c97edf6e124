"""Self-Ask's trace as the shared layers read it (hopkit/programs/views.py), through its typed trace: its follow-up
questions, the paragraphs each retrieved and their intermediate answers."""

from __future__ import annotations

from hopkit.programs.self_ask.trace import SelfAskTrace
from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def stats(logged: dict) -> dict[str, float]:
    trace = SelfAskTrace.from_dict(logged)
    return {"follow_ups": len(trace.steps), "loose_lines": sum(s.parse == "loose" for s in trace.steps),
            "line_parse_failures": sum(s.parse == "failed" for s in trace.steps),
            "answer_asked_for": int(trace.finished_by != "model")}


def html(logged: dict, cite: CitationOf) -> str:
    trace = SelfAskTrace.from_dict(logged)
    rows = [tag("tr", tag("td", text(s.follow_up)) + tag("td", " ".join(map(cite, s.retrieved)) or "-")
                + tag("td", text(s.answer))) for s in trace.steps]
    heads = "".join(tag("th", h) for h in ("follow up", "paragraphs", "intermediate answer"))
    ended = "the model's final answer" if trace.finished_by == "model" else "the turns ran out"
    return tag("div", tag("h4", f"Self-Ask follow-ups ({ended})") + tag("table", tag("tr", heads) + "".join(rows),
                                                                        class_="steps"), class_="trace-view self-ask")


def reasoning(logged: dict) -> str:
    """The follow-ups and intermediate answers, as the final answer read them."""
    return "\n".join(f"{s.follow_up} {s.answer}" for s in SelfAskTrace.from_dict(logged).steps)


def as_text(logged: dict) -> str:
    return "\n".join(f"  Follow up: {s.follow_up}\n    Intermediate answer: {s.answer}"
                     for s in SelfAskTrace.from_dict(logged).steps)


VIEWS = TraceViews(stats=stats, html=html, lost_at=read_everything, reasoning=reasoning, text=as_text)
