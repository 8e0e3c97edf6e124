"""ITER-RETGEN's trace as the shared layers read it (hopkit/programs/views.py): its turns, each with the query it
retrieved with, the paragraphs it read and its response."""

from __future__ import annotations

from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def stats(trace: dict) -> dict[str, float]:
    turns = trace.get("turns") or []
    return {"turns": len(turns), "generation_parse_failures": sum(t.get("parse") == "failed" for t in turns)}


def html(trace: dict, cite: CitationOf) -> str:
    rows = [tag("tr", tag("td", text(t.get("turn"))) + tag("td", text(t.get("query")))
                + tag("td", " ".join(cite(p) for p in t.get("retrieved") or []))
                + tag("td", text(t.get("reasoning")) + " " + tag("b", text(t.get("answer")))))
            for t in trace.get("turns") or []]
    heads = "".join(tag("th", h) for h in ("turn", "query", "paragraphs", "response"))
    return tag("div", tag("h4", "ITER-RETGEN turns") + tag("table", tag("tr", heads) + "".join(rows),
                                                          class_="steps"), class_="trace-view iter-retgen")


def reasoning(trace: dict) -> str:
    """The last turn's response."""
    turns = trace.get("turns") or []
    return str(turns[-1].get("reasoning") or "") if turns else ""


def as_text(trace: dict) -> str:
    return "\n".join(f"  turn {t.get('turn')}: retrieve with {t.get('query')!r} -> {len(t.get('retrieved') or [])} "
                     f"paragraphs\n    {t.get('reasoning')} -> {t.get('answer')}" for t in trace.get("turns") or [])


VIEWS = TraceViews(stats=stats, html=html, lost_at=read_everything, reasoning=reasoning, text=as_text)
