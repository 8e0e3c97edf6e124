"""Where a run loses its answers, per step, read from the traces of its log (``hopkit losses LOG``).

Each wrong answer (EM 0) gets the first cause that fits, in the order of the method's own steps:
- ``error``: the question raised (its row records why);
- ``final step``: an answer step (hopkit/additions/) turned a right answer wrong;
- ``retrieval``: a gold paragraph never reached the method (IRCoT and OneR: missing from what was read; ToR: none
  reviewed);
- ``plan``: SearChain's nodes' queries did not reach every gold paragraph;
- ``review``: ToR reviewed gold but never accepted it; SearChain's verification corrected a right node away;
- ``reader``: every gold paragraph was in hand and the answer is wrong (IRCoT's and OneR's reader, ToR's fusion,
  SearChain's reader or its final answer losing what its tree held).

The last four are each method's own reading of its trace (``lost_at`` in its folder's ``views.py``).
"""

from __future__ import annotations

from collections import Counter

from hopkit.additions.records import step_records
from hopkit.programs.registry import views_of
from hopkit.programs.views import LOSS_CAUSES
from hopkit.text.similarity import token_f1

CAUSES = ("error", "final step", *LOSS_CAUSES)


def best_f1(answer: str, golds: list[str]) -> float:
    return max((token_f1(answer or "", gold) for gold in golds), default=0.0)


def lost_at(row: dict) -> str | None:
    """The step that lost a wrong answer; None for a right one."""
    if row.get("error"):
        return "error"
    if row["metrics"].get("em", 0) == 1:
        return None
    trace = row.get("trace") or {}
    if any(best_f1(str(r["before"]), row["answers"]) == 1.0 > best_f1(str(r["after"]), row["answers"])
           for _, r in step_records(trace)):
        return "final step"
    return views_of(trace).lost_at(row, trace)


def losses(rows: list[dict]) -> Counter:
    """Questions by the step that lost them (None: answered right)."""
    return Counter(lost_at(row) for row in rows)


def format_losses(tables: dict[str, list[dict]]) -> str:
    lines = ["| log | n | right | " + " | ".join(CAUSES) + " |", "|" + "---|" * (3 + len(CAUSES))]
    for label, rows in tables.items():
        counts = losses(rows)
        lines.append(f"| {label} | {len(rows)} | {counts[None]} | " + " | ".join(str(counts[c]) for c in CAUSES)
                     + " |")
    return "\n".join(lines)
