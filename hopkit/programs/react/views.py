"""ReAct's trace as the shared layers read it (hopkit/programs/views.py): its thoughts and searches, with the
paragraphs each search observed."""

from __future__ import annotations

from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def stats(trace: dict) -> dict[str, float]:
    steps = trace.get("steps") or []
    return {"searches": len(steps), "loose_actions": sum(s.get("parse") == "loose" for s in steps),
            "action_parse_failures": sum(s.get("parse") == "failed" for s in steps),
            "answer_asked_for": int(trace.get("finished_by") != "model")}


def html(trace: dict, cite: CitationOf) -> str:
    rows = [tag("tr", tag("td", text(s.get("thought"))) + tag("td", "Search[" + text(s.get("query")) + "]")
                + tag("td", " ".join(cite(p) for p in s.get("retrieved") or []) or "-"))
            for s in trace.get("steps") or []]
    heads = "".join(tag("th", h) for h in ("thought", "action", "observation"))
    ended = "Finish" if trace.get("finished_by") == "model" else "the turns ran out"
    return tag("div", tag("h4", f"ReAct trajectory ({ended})") + tag("table", tag("tr", heads) + "".join(rows),
                                                                     class_="steps"), class_="trace-view react")


def reasoning(trace: dict) -> str:
    """The thoughts, in order."""
    return " ".join(t for t in trace.get("thoughts") or [] if t)


def as_text(trace: dict) -> str:
    return "\n".join(f"  Thought: {s.get('thought')}\n    Search[{s.get('query')}] -> {len(s.get('retrieved') or [])} "
                     "paragraphs" for s in trace.get("steps") or [])


VIEWS = TraceViews(stats=stats, html=html, lost_at=read_everything, reasoning=reasoning, text=as_text)
