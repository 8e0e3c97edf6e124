"""SearChain's trace as the shared layers read it (hopkit/programs/views.py): its counts, its Tree-of-Reasoning drawn
for the report, where it lost an answer, and the reasoning its answer steps read."""

from __future__ import annotations

from hopkit.additions.answer_steps import step_counts
from hopkit.programs.searchain.rendering import render_trace
from hopkit.programs.searchain.tree import COMPLETED, CORRECTED, FILLED, PASS, UNANSWERED
from hopkit.programs.views import CitationOf, TraceViews
from hopkit.text.markup import badge, tag, text, tree_list
from hopkit.text.normalize import covers

_ACTIONS = {"pass": "pass", "verified-corrected": "corrected", "completed": "completed",
            "skipped-duplicate": "duplicate", "not-reached": "not reached", "unsolved-kept": "unsolved",
            "no-ir": "no IR"}


def stats(trace: dict) -> dict[str, float]:
    tree = trace.get("tree") or {}
    nodes = {node["id"]: node for node in tree.get("nodes", [])}
    actions = [nodes[node_id]["action"] for node_id in trace.get("path", []) if node_id in nodes]
    branches = tree.get("branches", [])
    counts = step_counts(trace)
    return {"rounds": len(branches), "skc": len(trace.get("references") or []),
            "unreadable_chains": sum(b["parse"] == "unreadable" for b in branches),
            "fallback_parses": sum(b["parse"] == "fallback" for b in branches),
            "trace_parse_failures": tree.get("trace_parse_failures", 0),
            "decompose_retries": int(trace.get("restated_chain") is not None),
            **{name: counts[name] for name in ("yes_no_checks", "option_checks", "short_form_calls")},
            "rejudged": sum(bool(node.get("rejudged")) for node in nodes.values()),
            "reader_parse_failures": tree.get("reader_parse_failures", 0),
            "path_nodes": len(actions), "from_lm": actions.count(PASS),
            "corrected_by_ir": actions.count(CORRECTED), "completed_by_ir": actions.count(COMPLETED),
            "unanswered_by_ir": actions.count(UNANSWERED), "filled_from_record": actions.count(FILLED)}


def html(trace: dict, cite: CitationOf) -> str:
    """The Tree-of-Reasoning: each node's query, the LM's and the reader's answers, its action and document."""
    tree = trace.get("tree") or {}
    on_path = set(trace.get("path") or [])

    def line(node: dict) -> str:
        recorded = str(node.get("action") or "?")
        action = _ACTIONS.get(recorded, recorded)
        answer = "[unsolved]" if node.get("unsolved") else node.get("lm_answer")
        parts = [tag("b", text(node["id"])), " ", text(node.get("query")), " ",
                 tag("span", "LM: " + text(answer), class_="lm"), " ", badge(action, action.replace(" ", "-"))]
        if node.get("pid"):
            confidence = node.get("confidence")
            parts += [" ", tag("span", "reader: " + text(node.get("reader_answer") or "(none)")
                               + (f" f={confidence:.2f}" if isinstance(confidence, (int, float)) else ""),
                               class_="reader"), " ", cite(node.get("pid"))]
        if node.get("duplicate_of"):
            parts.append(tag("span", " = " + text(node["duplicate_of"]), class_="muted"))
        return tag("span", "".join(parts), class_="on-path" if node["id"] in on_path else "off-path",
                   data_action=action)

    body = tag("div", tree_list(tree.get("nodes") or [], "parent", "root", line), class_="tree searchain-tree")
    extra = ""
    if trace.get("final_content"):
        extra += tag("p", tag("b", "Final content: ") + text(trace["final_content"]))
    if trace.get("answer_source"):
        extra += tag("p", "answer from: " + text(trace["answer_source"]), class_="muted")
    return tag("div", tag("h4", f"Tree-of-Reasoning ({len(tree.get('branches') or [])} rounds)") + body + extra,
               class_="trace-view searchain")


def lost_at(row: dict, trace: dict) -> str:
    """review: verification corrected a node the LM had right; plan: the nodes' queries missed a gold paragraph;
    reader: the tree held every gold paragraph."""
    nodes = (trace.get("tree") or {}).get("nodes") or []
    if any(n.get("action") == "verified-corrected" and n.get("lm_answer")
           and any(covers(n["lm_answer"], gold) for gold in row["answers"]) for n in nodes):
        return "review"
    gold = set(row.get("gold_pids") or [])
    read = {n.get("pid") for n in nodes} | set((row.get("prediction") or {}).get("retrieved") or [])
    return "reader" if gold <= read else "plan"


def reasoning(trace: dict) -> str:
    """The final content traced with its references."""
    return trace.get("final_content") or ""


def statements(trace: dict) -> dict[str, str]:
    """The tracing step's own answer, beside the chain's planned one."""
    return {"traced_answer": str(trace.get("traced_answer") or "")}


VIEWS = TraceViews(stats=stats, html=html, lost_at=lost_at, reasoning=reasoning, text=render_trace,
                   statements=statements)
