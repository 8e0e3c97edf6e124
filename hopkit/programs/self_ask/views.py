"""Self-Ask's trace as the shared layers read it (hopkit/programs/views.py): its follow-up questions, the paragraphs
each retrieved and their intermediate answers."""

from __future__ import annotations

from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def stats(trace: dict) -> dict[str, float]:
    steps = trace.get("steps") or []
    return {"follow_ups": len(steps), "loose_lines": sum(s.get("parse") == "loose" for s in steps),
            "line_parse_failures": sum(s.get("parse") == "failed" for s in steps),
            "answer_asked_for": int(trace.get("finished_by") != "model")}


def html(trace: dict, cite: CitationOf) -> str:
    rows = [tag("tr", tag("td", text(s.get("follow_up"))) + tag("td", " ".join(cite(p) for p in s.get("retrieved")
                                                                               or []) or "-")
                + tag("td", text(s.get("answer")))) for s in trace.get("steps") or []]
    heads = "".join(tag("th", h) for h in ("follow up", "paragraphs", "intermediate answer"))
    ended = "the model's final answer" if trace.get("finished_by") == "model" else "the turns ran out"
    return tag("div", tag("h4", f"Self-Ask follow-ups ({ended})") + tag("table", tag("tr", heads) + "".join(rows),
                                                                        class_="steps"), class_="trace-view self-ask")


def reasoning(trace: dict) -> str:
    """The follow-ups and intermediate answers, as the final answer read them."""
    return "\n".join(f"{s.get('follow_up')} {s.get('answer')}" for s in trace.get("steps") or [])


def as_text(trace: dict) -> str:
    return "\n".join(f"  Follow up: {s.get('follow_up')}\n    Intermediate answer: {s.get('answer')}"
                     for s in trace.get("steps") or [])


VIEWS = TraceViews(stats=stats, html=html, lost_at=read_everything, reasoning=reasoning, text=as_text)
