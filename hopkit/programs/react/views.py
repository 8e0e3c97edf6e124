"""ReAct's trace as the shared layers read it (hopkit/programs/views.py), through its typed trace: its thoughts and
searches, with the paragraphs each search observed."""

from __future__ import annotations

from hopkit.programs.react.trace import ReActTrace
from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def stats(logged: dict) -> dict[str, float]:
    trace = ReActTrace.from_dict(logged)
    return {"searches": len(trace.steps), "loose_actions": sum(s.parse == "loose" for s in trace.steps),
            "action_parse_failures": sum(s.parse == "failed" for s in trace.steps),
            "answer_asked_for": int(trace.finished_by != "model")}


def html(logged: dict, cite: CitationOf) -> str:
    trace = ReActTrace.from_dict(logged)
    rows = [tag("tr", tag("td", text(s.thought)) + tag("td", "Search[" + text(s.query) + "]")
                + tag("td", " ".join(map(cite, s.retrieved)) or "-")) for s in trace.steps]
    heads = "".join(tag("th", h) for h in ("thought", "action", "observation"))
    ended = "Finish" if trace.finished_by == "model" else "the turns ran out"
    return tag("div", tag("h4", f"ReAct trajectory ({ended})") + tag("table", tag("tr", heads) + "".join(rows),
                                                                     class_="steps"), class_="trace-view react")


def reasoning(logged: dict) -> str:
    """The thoughts, in order."""
    return " ".join(t for t in ReActTrace.from_dict(logged).thoughts if t)


def as_text(logged: dict) -> str:
    return "\n".join(f"  Thought: {s.thought}\n    Search[{s.query}] -> {len(s.retrieved)} paragraphs"
                     for s in ReActTrace.from_dict(logged).steps)


VIEWS = TraceViews(stats=stats, html=html, lost_at=read_everything, reasoning=reasoning, text=as_text)
