"""What the shared layers read from a method's trace, declared by the method beside its program.

A trace is the method's own record, and only its folder knows its fields. The harness counts a run's statistics,
the report draws each question's trace, ``hopkit losses`` finds the step that lost an answer, and ``hopkit replay``
hands an answer step the method's reasoning, all through these views (CONTRIBUTING.md, "Add a method"). A method
that declares none gets the defaults: no statistics, the trace as JSON, and retrieval-or-reader losses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hopkit.text.markup import tag, text

Passages = dict[str, tuple[str, str]]  # pid -> (title, paragraph text)
CitationOf = Callable[[str | None], str]  # a paragraph's pid -> its HTML citation (gold marked)
LOSS_CAUSES = ("retrieval", "plan", "review", "reader")  # a method's steps, in the order losses are looked for


def no_stats(trace: dict) -> dict[str, float]:
    return {}


def read_everything(row: dict, trace: dict) -> str:
    """A method that reads what it retrieved loses an answer at retrieval unless every gold paragraph was read."""
    read = set((row.get("prediction") or {}).get("retrieved") or [])
    return "retrieval" if not set(row.get("gold_pids") or []) <= read else "reader"


def as_json(trace: dict) -> str:
    import json

    return json.dumps(trace, indent=2, ensure_ascii=False, default=str)


def json_html(trace: dict, cite: CitationOf) -> str:
    """A method without its own drawing: its trace as JSON."""
    return tag("pre", text(as_json(trace)), class_="trace-view generic")


def no_reasoning(trace: dict) -> str:
    return ""


def no_statements(trace: dict) -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class TraceViews:
    """One method's readings of its own trace.

    ``stats``: the numbers a run's table averages; ``html``: the trace drawn for the report page; ``lost_at``: for a
    wrong answer, the first of LOSS_CAUSES whose step lost it (given the log row and its trace); ``reasoning``: the
    text the method hands its answer steps; ``text``: the trace for a terminal (``hopkit ask --show-trace``);
    ``statements``: its other statements of the answer, by name, which a task reads (hopkit/tasks.py, RESPONSE: a
    long-form one)."""

    stats: Callable[[dict], dict[str, float]] = no_stats
    html: Callable[[dict, CitationOf], str] = json_html
    lost_at: Callable[[dict, dict], str] = read_everything
    reasoning: Callable[[dict], str] = no_reasoning
    text: Callable[[dict], str] = as_json
    statements: Callable[[dict], dict[str, str]] = no_statements


NO_VIEWS = TraceViews()  # a trace of no known method
