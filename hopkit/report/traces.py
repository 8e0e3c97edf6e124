"""Each method's trace as HTML: SearChain's Tree-of-Reasoning, ToR's review tree and evidence pool,
IRCoT's interleaved steps, and the retrieved list of the baselines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hopkit.report.markup import badge, tag, text

Passages = dict[str, tuple[str, str]]  # pid -> (title, paragraph text)

_SEARCHAIN_ACTIONS = {"pass": "pass", "verified-corrected": "corrected", "completed": "completed",
                      "skipped-duplicate": "duplicate", "not-reached": "not reached", "unsolved-kept": "unsolved",
                      "no-ir": "no IR"}


def render_trace(trace: dict[str, Any] | None, gold: set[str], passages: Passages | None = None) -> str:
    if not trace:
        return tag("p", "no trace", class_="muted")
    view = _VIEWS.get(str(trace.get("method", "")), _generic)
    return view(trace, gold, passages or {}) + answer_steps(trace)


def citation(pid: str, gold: set[str], passages: Passages | None = None) -> str:
    """A paragraph by its title (its pid when the title is unknown) that opens to the paragraph's text."""
    known = (passages or {}).get(pid)
    kind = "pid gold" if pid in gold else "pid"
    if known is None:
        return tag("span", text(pid), class_=kind)
    title, body = known
    return tag("details", tag("summary", text(title), class_=kind, title=pid) + tag("div", text(body), class_="para"),
               class_="cite")


def _pid(pid: str | None, gold: set[str], passages: Passages) -> str:
    if not pid:
        return ""
    return citation(pid, gold, passages)


def answer_steps(trace: dict) -> str:
    """Every answer step that acted (the additions room's checks and short form): before, after and why."""
    from hopkit.additions.records import LABELS, step_records, why

    items = []
    for step, record in step_records(trace):
        changed = str(record.get("before")) != str(record.get("after"))
        items.append(tag("li", badge(LABELS.get(step, step), "check-changed" if changed else "check-kept") + " "
                         + tag("span", text(record.get("before")), class_="before") + " &rarr; "
                         + tag("span", text(record.get("after")), class_="after") + " "
                         + tag("span", "(" + text(why(step, record)) + ")", class_="muted"),
                         class_="answer-step", data_step=step, data_changed=str(changed).lower()))
    return tag("div", tag("h4", "Answer steps") + tag("ul", "".join(items)), class_="answer-steps") if items else ""


def _tree(nodes: list[dict], parent_key: str, root: str, line: Callable[[dict], str]) -> str:
    children: dict[str, list[dict]] = {}
    for node in nodes:
        children.setdefault(str(node.get(parent_key)), []).append(node)

    def walk(parent: str) -> str:
        items = [tag("li", line(node) + walk(str(node["id"])), class_="node", data_id=node["id"])
                 for node in children.get(parent, [])]
        return tag("ul", "".join(items)) if items else ""

    return walk(root)


def _searchain(trace: dict, gold: set[str], passages: Passages) -> str:
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
                               class_="reader"), " ", _pid(node.get("pid"), gold, passages)]
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


def _tor(trace: dict, gold: set[str], passages: Passages) -> str:
    def line(node: dict) -> str:
        action = node.get("action") or node.get("status") or "?"
        parts = [tag("b", text(node["id"])), " ", _pid(node.get("pid"), gold, passages), " ", badge(action, action)]
        if node.get("unsupported_accept"):
            parts.append(badge("unsupported accept", "pruned"))
        if node.get("output"):
            parts += [" ", tag("span", text(node["output"]), class_="lm")]
        if node.get("next_query"):
            parts += [" ", tag("span", "next query: " + text(node["next_query"]), class_="reader")]
        return tag("span", "".join(parts), data_action=action)

    pool = "".join(tag("li", text(e.get("analysis")) + " "
                       + " ".join(_pid(p, gold, passages) for p in e.get("pids") or []))
                   for e in trace.get("evidence") or [])
    return tag("div", tag("h4", "Review tree") + tag("div", _tree(trace.get("nodes") or [], "parent", "root", line),
                                                     class_="tree tor-tree")
               + tag("h4", "Evidence pool") + (tag("ul", pool) if pool else tag("p", "empty", class_="muted")),
               class_="trace-view tor")


def _ircot(trace: dict, gold: set[str], passages: Passages) -> str:
    steps = trace.get("steps") or []
    # the query is the step's sentence unless the method wrote another (the first step's query is the question)
    separate = any((step.get("query") or "") != (step.get("sentence") or "") and step.get("sentence")
                   for step in steps)
    rows = []
    for step in steps:
        added = " ".join(_pid(p, gold, passages) for p in step.get("added") or [])
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


def _generic(trace: dict, gold: set[str], passages: Passages) -> str:
    retrieved = trace.get("retrieved") or []
    items = "".join(tag("li", _pid(r.get("pid") if isinstance(r, dict) else r, gold, passages)
                        + (" " + text(r.get("title")) if isinstance(r, dict) and r.get("title") else ""))
                    for r in retrieved)
    thought = tag("p", tag("b", "Thought: ") + text(trace["thought"])) if trace.get("thought") else ""
    return tag("div", tag("h4", text(trace.get("method", "trace"))) + (tag("ol", items) if items else "") + thought,
               class_="trace-view generic")


_VIEWS = {"searchain": _searchain, "tor": _tor, "cor": _tor, "ircot": _ircot}
