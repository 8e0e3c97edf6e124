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
"""

from __future__ import annotations

from collections import Counter

from hopkit.additions.records import step_records
from hopkit.evaluation.metrics import cover_exact_match
from hopkit.text.similarity import token_f1

CAUSES = ("error", "final step", "retrieval", "plan", "review", "reader")
REVIEW_ACTIONS = ("accept", "reject", "search")


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
    method = trace.get("method")
    if method == "searchain":
        return _searchain(row, trace)
    if method in ("tor", "cor"):
        return _tor(row, trace)
    read = set((row.get("prediction") or {}).get("retrieved") or [])
    return "retrieval" if not set(row.get("gold_pids") or []) <= read else "reader"


def _covers(text: str | None, answers: list[str]) -> bool:
    return bool(text) and any(cover_exact_match(text, gold) for gold in answers)


def _searchain(row: dict, trace: dict) -> str:
    nodes = (trace.get("tree") or {}).get("nodes") or []
    if any(n.get("action") == "verified-corrected" and _covers(n.get("lm_answer"), row["answers"]) for n in nodes):
        return "review"
    gold = set(row.get("gold_pids") or [])
    read = {n.get("pid") for n in nodes} | set((row.get("prediction") or {}).get("retrieved") or [])
    return "reader" if gold <= read else "plan"


def _reviewed(trace: dict, node: dict) -> set:
    """The paragraphs one review read: CoR reviews its whole path, a ToR node its own paragraph."""
    return set(node.get("path") or []) if trace.get("method") == "cor" else {node.get("pid")}


def _tor(row: dict, trace: dict) -> str:
    gold = set(row.get("gold_pids") or [])
    nodes = trace.get("nodes") or []
    reviewed = {pid for n in nodes if n.get("action") in REVIEW_ACTIONS for pid in _reviewed(trace, n)}
    evidence = {pid for item in trace.get("evidence") or [] for pid in item.get("pids") or []}
    if not gold & reviewed:
        return "retrieval"
    return "review" if not gold & evidence else "reader"


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
