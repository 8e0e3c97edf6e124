"""IRCoT's trace as the shared layers read it (hopkit/programs/views.py): its counts, its steps drawn for the report,
where it lost an answer, and the reasoning its answer steps read."""

from __future__ import annotations

from hopkit.additions.answer_steps import step_counts
from hopkit.programs.views import CitationOf, TraceViews, read_everything
from hopkit.text.markup import tag, text


def stats(trace: dict) -> dict[str, float]:
    reader = trace.get("reader_output") or {}
    counts = step_counts(reader)
    return {"sentences": len(trace.get("chain") or []),
            "reason_parse_failures": int(trace.get("stop") == "reason_parse_failure"),
            "reader_parse_failures": int("parse_error" in reader),
            **{name: counts[name] for name in ("yes_no_checks", "option_checks", "date_comparisons")}}


def html(trace: dict, cite: CitationOf) -> str:
    """The interleaved steps as a table: sentence, the query it became (where another), paragraphs added."""
    steps = trace.get("steps") or []
    # the query is the step's sentence unless the method wrote another (the first step's query is the question)
    separate = any((step.get("query") or "") != (step.get("sentence") or "") and step.get("sentence")
                   for step in steps)
    rows = []
    for step in steps:
        added = " ".join(cite(p) for p in step.get("added") or [])
        sentence, query = step.get("sentence") or "", step.get("query") or ""
        said = tag("td", text(sentence or query)) + (tag("td", text(query if query != sentence else "= sentence"))
                                                     if separate else "")
        rows.append(tag("tr", tag("td", text(step.get("step"))) + said + tag("td", added or "-")))
    heads = ("step", "sentence", "query", "paragraphs added") if separate else ("step", "sentence (the query)",
                                                                                "paragraphs added")
    table = tag("table", tag("tr", "".join(tag("th", h) for h in heads)) + "".join(rows), class_="steps")
    reader = trace.get("reader_output") or {}
    extra = tag("p", tag("b", "Reader: ") + text(reader.get("generation") or reader.get("answer_field") or "")) \
        if reader else ""
    return tag("div", tag("h4", f"IRCoT steps (stop: {text(trace.get('stop'))})") + table + extra,
               class_="trace-view ircot")


def reasoning(trace: dict) -> str:
    """The chain without a reader, the CoT reader's generation with one, and nothing with the direct reader."""
    if trace.get("reader") == "none":
        return " ".join(trace.get("chain") or [])
    reader = trace.get("reader_output") or {}
    return (reader.get("generation") or "") if trace.get("reader") == "cot" else ""


def as_text(trace: dict) -> str:
    from hopkit.programs.ircot.rendering import render_steps

    collected = {pid for step in trace.get("steps") or [] for pid in step.get("added") or []}
    return render_steps(trace, len(collected))


VIEWS = TraceViews(stats=stats, html=html, lost_at=read_everything, reasoning=reasoning, text=as_text)
