"""Reading a Chain-of-Query from text the typed parser rejected, and writing one back as text.

Accepts the JSON list the typed signature asks for (even inside DSPy's field markers, or with
loose fields), and the paper's marker format::

    [Query 1]: Who wrote Seventh Atlas?
    [Answer 1]: Seventh Atlas was written by Houk Thutesine.
    [Unsolved Query 2]: Where was Houk Thutesine born?
    [Final Content]: ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from hopkit.signatures.searchain import QueryNode

Plan = tuple[list[QueryNode], str, str]  # a planner's chain, its final answer, and how it was parsed

_SECTION = re.compile(r"\[\[ ## (\w+) ## \]\]\s*(.*?)(?=\[\[ ## \w+ ## \]\]|\Z)", re.S)
_MARKER = re.compile(r"^\s*[-*]?\s*\[?\s*(unsolved\s+query|query|answer|final\s+content|final\s+answer)"
                     r"\s*\d*\s*\]?\s*:\s*(.*)$", re.I)
_QUERY_STRING = re.compile(r'"query"\s*:\s*"([^"]+)"')
_UNSOLVED_WORDS = re.compile(r"^\s*(\[?unsolved( query)?\]?|unknown|n/?a|none|null|i don'?t know\.?)\s*$", re.I)


def parse_chain_text(text: str) -> tuple[list[QueryNode], str]:
    """The nodes and final answer found in ``text``; no nodes when nothing readable is there."""
    sections = {name: body.strip() for name, body in _SECTION.findall(text or "")}
    body = sections.get("chain", text or "")
    final = _strip_quotes(sections.get("final_answer", ""))
    nodes = _json_nodes(body)
    if nodes:
        return nodes, final
    nodes, marker_final = _marker_nodes(body if "chain" in sections else text or "")
    if not nodes:  # e.g. JSON cut off by a runaway answer: keep the queries, unsolved
        nodes = [QueryNode(query=q.strip(), answer=None, unsolved=True) for q in _QUERY_STRING.findall(body)
                 if q.strip()]
    return nodes, final or marker_final


def render_chain(nodes: Sequence[QueryNode], final_answer: str = "") -> str:
    """The chain in the paper's marker format, as it is shown back to the LM in the feedback."""
    lines = []
    for i, node in enumerate(nodes, start=1):
        if node.unsolved or not node.answer_text:
            lines.append(f"[Unsolved Query {i}]: {node.query}")
        else:
            lines.append(f"[Query {i}]: {node.query}\n[Answer {i}]: {node.answer_text}")
    if final_answer:
        lines.append(f"[Final Answer]: {final_answer}")
    return "\n".join(lines)


def _json_nodes(body: str) -> list[QueryNode]:
    start, end = body.find("["), body.rfind("]")
    if 0 <= start < end:
        whole = _loads(body[start:end + 1])
        if isinstance(whole, list) and (nodes := _nodes(whole)):
            return nodes
    return _nodes([_loads(obj) for obj in re.findall(r"\{[^{}]*\}", body)])  # objects one by one


def _loads(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def _nodes(items: list) -> list[QueryNode]:
    nodes = [_node_from_dict(item) for item in items if isinstance(item, dict)]
    return [node for node in nodes if node is not None]


def _node_from_dict(item: dict) -> QueryNode | None:
    query = str(item.get("query") or item.get("question") or "").strip()
    if not query:
        return None
    answer = item.get("answer")
    answer = None if answer is None else str(answer).strip()
    unsolved = _truthy(item.get("unsolved")) or not answer or bool(_UNSOLVED_WORDS.match(answer or ""))
    return QueryNode(query=query, answer=None if unsolved else answer, unsolved=unsolved)


def _marker_nodes(text: str) -> tuple[list[QueryNode], str]:
    nodes: list[QueryNode] = []
    final = ""
    for line in text.splitlines():
        match = _MARKER.match(line)
        if not match:
            continue
        kind, value = match.group(1).lower(), match.group(2).strip()
        if kind.startswith("unsolved"):
            nodes.append(QueryNode(query=value, answer=None, unsolved=True))
        elif kind == "query":
            nodes.append(QueryNode(query=value, answer=None, unsolved=True))  # solved once its answer follows
        elif kind == "answer" and nodes and not nodes[-1].answer_text:
            if value and not _UNSOLVED_WORDS.match(value):
                nodes[-1] = QueryNode(query=nodes[-1].query, answer=value, unsolved=False)
        elif kind.startswith("final"):
            final = value
    return [node for node in nodes if node.query], _strip_quotes(final)


def _truthy(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in {"true", "yes", "1"})


def _strip_quotes(text: str) -> str:
    text = text.strip().strip('"').strip()
    return "" if _UNSOLVED_WORDS.match(text) else text
