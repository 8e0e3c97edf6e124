"""Each method's trace as HTML: SearChain's Tree-of-Reasoning, ToR's review tree and evidence pool,
IRCoT's interleaved steps, and the retrieved list of the baselines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hopkit.report.markup import badge, tag, text

_SEARCHAIN_ACTIONS = {"pass": "pass", "verified-corrected": "corrected", "completed": "completed",
                      "skipped-duplicate": "duplicate", "not-reached": "not reached", "unsolved-kept": "unsolved",
                      "no-ir": "no IR"}


def render_trace(trace: dict[str, Any] | None, gold: set[str]) -> str:
    if not trace:
        return tag("p", "no trace", class_="muted")
    view = _VIEWS.get(str(trace.get("method", "")), _generic)
    return view(trace, gold)


def _pid(pid: str | None, gold: set[str]) -> str:
    if not pid:
        return ""
    return tag("span", text(pid), class_="pid gold" if pid in gold else "pid")


def _tree(nodes: list[dict], parent_key: str, root: str, line: Callable[[dict], str]) -> str:
    children: dict[str, list[dict]] = {}
    for node in nodes:
        children.setdefault(str(node.get(parent_key)), []).append(node)

    def walk(parent: str) -> str:
        items = [tag("li", line(node) + walk(str(node["id"])), class_="node", data_id=node["id"])
                 for node in children.get(parent, [])]
        return tag("ul", "".join(items)) if items else ""

    return walk(root)


def _searchain(trace: dict, gold: set[str]) -> str:
    tree = trace.get("tree") or {}
    on_path = set(trace.get("path") or [])

    def line(node: dict) -> str:
        action = _SEARCHAIN_ACTIONS.get(node.get("action"), node.get("action") or "?")
        answer = "[unsolved]" if node.get("unsolved") else node.get("lm_answer")
        parts = [tag("b", text(node["id"])), " ", text(node.get("query")), " ",
                 tag("span", "LM: " + text(answer), class_="lm"), " ", badge(action, action.replace(" ", "-"))]
        if node.get("pid"):
            confidence = node.get("confidence")
            parts += [" ", tag("span", "reader: " + text(node.get("reader_answer") or "(none)")
                               + (f" f={confidence:.2f}" if isinstance(confidence, (int, float)) else ""),
                               class_="reader"), " ", _pid(node.get("pid"), gold)]
        if node.get("duplicate_of"):
            parts.append(tag("span", " = " + text(node["duplicate_of"]), class_="muted"))
        return tag("span", "".join(parts), class_="on-path" if node["id"] in on_path else "off-path",
                   data_action=action)

    body = tag("div", _tree(tree.get("nodes") or [], "parent", "root", line), class_="tree searchain-tree")
    extra = ""
    if trace.get("final_content"):
        extra += tag("p", tag("b", "Final content: ") + text(trace["final_content"]))
    if trace.get("answer_source"):
        extra += tag("p", "answer from: " + text(trace["answer_source"]), class_="muted")
    return tag("div", tag("h4", f"Tree-of-Reasoning ({len(tree.get('branches') or [])} rounds)") + body + extra,
               class_="trace-view searchain")


def _tor(trace: dict, gold: set[str]) -> str:
    def line(node: dict) -> str:
        action = node.get("action") or node.get("status") or "?"
        parts = [tag("b", text(node["id"])), " ", _pid(node.get("pid"), gold), " ", badge(action, action)]
        if node.get("unsupported_accept"):
            parts.append(badge("unsupported accept", "pruned"))
        if node.get("output"):
            parts += [" ", tag("span", text(node["output"]), class_="lm")]
        if node.get("next_query"):
            parts += [" ", tag("span", "next query: " + text(node["next_query"]), class_="reader")]
        return tag("span", "".join(parts), data_action=action)

    pool = "".join(tag("li", text(e.get("analysis")) + " " + " ".join(_pid(p, gold) for p in e.get("pids") or []))
                   for e in trace.get("evidence") or [])
    return tag("div", tag("h4", "Review tree") + tag("div", _tree(trace.get("nodes") or [], "parent", "root", line),
                                                     class_="tree tor-tree")
               + tag("h4", "Evidence pool") + (tag("ul", pool) if pool else tag("p", "empty", class_="muted")),
               class_="trace-view tor")


def _ircot(trace: dict, gold: set[str]) -> str:
    rows = []
    for step in trace.get("steps") or []:
        added = " ".join(_pid(p, gold) for p in step.get("added") or [])
        rows.append(tag("tr", tag("td", text(step.get("step"))) + tag("td", text(step.get("sentence") or ""))
                        + tag("td", text(step.get("query") or "")) + tag("td", added or "-")))
    table = tag("table", tag("tr", "".join(tag("th", h) for h in ("step", "sentence", "query", "paragraphs added")))
                + "".join(rows), class_="steps")
    reader = trace.get("reader_output") or {}
    extra = tag("p", tag("b", "Reader: ") + text(reader.get("generation") or reader.get("answer_field") or "")) \
        if reader else ""
    return tag("div", tag("h4", f"IRCoT steps (stop: {text(trace.get('stop'))})") + table + extra,
               class_="trace-view ircot")


def _generic(trace: dict, gold: set[str]) -> str:
    retrieved = trace.get("retrieved") or []
    items = "".join(tag("li", _pid(r.get("pid") if isinstance(r, dict) else r, gold)
                        + (" " + text(r.get("title")) if isinstance(r, dict) and r.get("title") else ""))
                    for r in retrieved)
    thought = tag("p", tag("b", "Thought: ") + text(trace["thought"])) if trace.get("thought") else ""
    return tag("div", tag("h4", text(trace.get("method", "trace"))) + (tag("ol", items) if items else "") + thought,
               class_="trace-view generic")


_VIEWS = {"searchain": _searchain, "tor": _tor, "cor": _tor, "ircot": _ircot}
