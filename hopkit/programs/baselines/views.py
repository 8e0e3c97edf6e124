"""NoR's and OneR's trace as the shared layers read it (hopkit/programs/views.py): the paragraphs retrieved and the
reader's thought; their losses are those of any method that reads what it retrieved."""

from __future__ import annotations

from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def html(trace: dict, cite: CitationOf) -> str:
    """The retrieved list (none for NoR) and the CoT reader's thought."""
    retrieved = trace.get("retrieved") or []
    items = "".join(tag("li", cite(r.get("pid") if isinstance(r, dict) else r)
                        + (" " + text(r.get("title")) if isinstance(r, dict) and r.get("title") else ""))
                    for r in retrieved)
    thought = tag("p", tag("b", "Thought: ") + text(trace.get("thought"))) if trace.get("thought") else ""
    return tag("div", tag("h4", text(trace.get("method", "trace"))) + (tag("ol", items) if items else "") + thought,
               class_="trace-view generic")


def reasoning(trace: dict) -> str:
    """A CoT reader's thought, else nothing."""
    return trace.get("thought") or ""


VIEWS = TraceViews(html=html, lost_at=read_everything, reasoning=reasoning)
