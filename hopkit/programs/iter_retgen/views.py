"""ITER-RETGEN's trace as the shared layers read it (hopkit/programs/views.py), through its typed trace: its turns,
each with the query it retrieved with, the paragraphs it read and its response."""

from __future__ import annotations

from hopkit.programs.iter_retgen.trace import IterRetGenTrace
from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def stats(logged: dict) -> dict[str, float]:
    turns = IterRetGenTrace.from_dict(logged).turns
    return {"turns": len(turns), "generation_parse_failures": sum(t.parse == "failed" for t in turns)}


def html(logged: dict, cite: CitationOf) -> str:
    rows = [tag("tr", tag("td", text(t.turn)) + tag("td", text(t.query)) + tag("td", " ".join(map(cite, t.retrieved)))
                + tag("td", text(t.reasoning) + " " + tag("b", text(t.answer))))
            for t in IterRetGenTrace.from_dict(logged).turns]
    heads = "".join(tag("th", h) for h in ("turn", "query", "paragraphs", "response"))
    return tag("div", tag("h4", "ITER-RETGEN turns") + tag("table", tag("tr", heads) + "".join(rows),
                                                          class_="steps"), class_="trace-view iter-retgen")


def reasoning(logged: dict) -> str:
    """The last turn's response."""
    turns = IterRetGenTrace.from_dict(logged).turns
    return turns[-1].reasoning if turns else ""


def as_text(logged: dict) -> str:
    return "\n".join(f"  turn {t.turn}: retrieve with {t.query!r} -> {len(t.retrieved)} paragraphs\n"
                     f"    {t.reasoning} -> {t.answer}" for t in IterRetGenTrace.from_dict(logged).turns)


VIEWS = TraceViews(stats=stats, html=html, lost_at=read_everything, reasoning=reasoning, text=as_text)
