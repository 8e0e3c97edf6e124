"""SearChain's trace as terminal text: the Tree-of-Reasoning, the correct path, the final content."""

from __future__ import annotations

from typing import Any

_MARK = {"pass": "PASS", "verified-corrected": "CORRECTED", "completed": "COMPLETED",
         "skipped-duplicate": "DUPLICATE", "unsolved-kept": "UNSOLVED", "unsolved-unanswered": "NO ANSWER",
         "completed-from-record": "FILLED", "not-reached": "not reached",
         "no-ir": "no IR"}


def render_trace(trace: dict[str, Any]) -> str:
    tree = trace["tree"]
    nodes = {n["id"]: n for n in tree["nodes"]}
    on_path = set(trace.get("path", []))
    lines = [f"Tree-of-Reasoning ({trace['variant']}; {len(tree['branches'])} round(s), "
             f"{'finished' if trace.get('finished') else 'stopped at r_max'})", f"Q: {tree['question']}"]

    def walk(parent: str, depth: int) -> None:
        for node in (n for n in nodes.values() if n["parent"] == parent):
            lines.append("  " * depth + _node_line(node, node["id"] in on_path))
            walk(node["id"], depth + 1)

    walk("root", 1)
    for branch in tree["branches"]:
        if branch["parse"] != "typed":
            lines.append(f"  (round {branch['round']}: chain {branch['parse']})")
    path = [nodes[i] for i in trace.get("path", [])]
    if path:
        lines.append("Correct path:")
        for n, node in enumerate(path, start=1):
            answer = node["reader_answer"] if node["action"] in ("verified-corrected", "completed",
                                                                 "completed-from-record") else node["lm_answer"]
            lines.append(f"  [{n}] {node['query']} -> {answer or '?'}   (doc {node['pid']})")
    if trace.get("restated_chain"):
        lines.append("  (the first chain restated the question; asked once more to decompose it)")
    if trace.get("final_content"):
        lines.append(f"Final content: {trace['final_content']}")
    source = {"chain": "the last chain's own answer", "traced": "tracing over the verified pairs",
              "last-node": "the last node's verified answer"}.get(trace.get("answer_source", ""))
    if source:
        lines.append(f"Final answer from: {source}")
    actions = [node["action"] for node in path]
    lines.append("Knowledge on the path: " + ", ".join(
        f"{actions.count(action)} {label}" for action, label in (("pass", "from the LM"),
                                                                ("verified-corrected", "corrected by IR"),
                                                                ("completed", "completed by IR")))
        + f"; SKC {len(trace.get('references') or [])}")
    return "\n".join(lines)


def _node_line(node: dict[str, Any], on_path: bool) -> str:
    star = "*" if on_path else "-"
    answer = "[unsolved]" if node["unsolved"] else node["lm_answer"]
    line = f"{star} {node['id']} {node['query']}  LM: {answer}  [{_MARK.get(node['action'], node['action'])}]"
    if node.get("pid"):
        confidence = f"{node['confidence']:.2f}" if node.get("confidence") is not None else "-"
        line += f"  reader: {node.get('reader_answer') or '(none)'} f={confidence} doc={node['pid']}"
    if node.get("duplicate_of"):
        line += f"  (= {node['duplicate_of']}{', judged again' if node.get('rejudged') else ''})"
    return line
