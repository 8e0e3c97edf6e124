"""Tree of Reviews' trace (and CoR's) as the shared layers read it (hopkit/programs/views.py): its counts, its review
tree and evidence pool drawn for the report, where it lost an answer, and the reasoning its answer steps read."""

from __future__ import annotations

from collections.abc import Callable

from hopkit.programs.tree_of_reviews.review import ACCEPT, REJECT, SEARCH
from hopkit.programs.tree_of_reviews.tree import PRUNED_REPETITIVE
from hopkit.programs.views import CitationOf, TraceViews
from hopkit.tasks import RESPONSE
from hopkit.text.markup import badge, tag, text, tree_list

REVIEW_ACTIONS = (ACCEPT, REJECT, SEARCH)


def stats(trace: dict) -> dict[str, float]:
    nodes = trace.get("nodes") or []
    reviews = [n for n in nodes if n.get("action") is not None]
    distinct = {pid for n in reviews for pid in n["path"]}  # a review reads its whole path (CoR: every paragraph)
    api = trace.get("lm_steps", 0)

    def count(test: Callable[[dict], bool], among: list[dict] = reviews) -> int:
        return sum(bool(test(n)) for n in among)

    return {"api": api, "doc": len(distinct), "rate": len(distinct) / api if api else 0.0,
            "evidence": len(trace.get("evidence") or []), "reviews": len(reviews),
            "review_parse_failures": count(lambda n: n.get("parse") == "failed"),
            "review_marker_parses": count(lambda n: n.get("parse") == "markers"),
            "pruned_repetitive": count(lambda n: n.get("status") == PRUNED_REPETITIVE, nodes),
            "fusion_parse_failures": int(trace.get("fusion_parse") == "failed"),
            "empty_pool": int(bool(trace.get("empty_pool"))),
            "accepts": count(lambda n: n["action"] == ACCEPT), "rejects": count(lambda n: n["action"] == REJECT),
            "searches": count(lambda n: n["action"] == SEARCH),
            "unsupported_accepts": count(lambda n: bool(n.get("unsupported_accept"))),
            "overruled_rejects": count(lambda n: bool(n.get("overruled_reject"))),
            "written_queries": count(lambda n: n.get("query_source") == "written"),
            "unexpanded_searches": count(lambda n: n.get("query_source") == "none")}


def html(trace: dict, cite: CitationOf) -> str:
    """The review tree (each paragraph, its review's action and output, the next query) and the evidence pool."""
    def line(node: dict) -> str:
        action = node.get("action") or node.get("status") or "?"
        parts = [tag("b", text(node["id"])), " ", cite(node.get("pid")), " ", badge(action, action)]
        if node.get("unsupported_accept"):
            parts.append(badge("unsupported accept", "pruned"))
        if node.get("output"):
            parts += [" ", tag("span", text(node["output"]), class_="lm")]
        if node.get("next_query"):
            parts += [" ", tag("span", "next query: " + text(node["next_query"]), class_="reader")]
        return tag("span", "".join(parts), data_action=action)

    pool = "".join(tag("li", text(e.get("analysis")) + " " + " ".join(cite(p) for p in e.get("pids") or []))
                   for e in trace.get("evidence") or [])
    return tag("div", tag("h4", "Review tree") + tag("div", tree_list(trace.get("nodes") or [], "parent", "root",
                                                                      line), class_="tree tor-tree")
               + tag("h4", "Evidence pool") + (tag("ul", pool) if pool else tag("p", "empty", class_="muted")),
               class_="trace-view tor")


def _reviewed(trace: dict, node: dict) -> set:
    """The paragraphs one review read: CoR reviews its whole path, a ToR node its own paragraph."""
    return set(node.get("path") or []) if trace.get("method") == "cor" else {node.get("pid")}


def lost_at(row: dict, trace: dict) -> str:
    """retrieval: no gold paragraph was reviewed; review: gold was reviewed but never accepted into the evidence;
    reader: the evidence held gold and fusion answered wrong."""
    gold = set(row.get("gold_pids") or [])
    nodes = trace.get("nodes") or []
    reviewed = {pid for n in nodes if n.get("action") in REVIEW_ACTIONS for pid in _reviewed(trace, n)}
    evidence = {pid for item in trace.get("evidence") or [] for pid in item.get("pids") or []}
    if not gold & reviewed:
        return "retrieval"
    return "review" if not gold & evidence else "reader"


def reasoning(trace: dict) -> str:
    """The evidence fusion's response."""
    return trace.get("response") or ""


def statements(trace: dict) -> dict[str, str]:
    """The fusion's response, which a long-form task may take for the answer."""
    return {RESPONSE: str(trace.get("response") or "")}


VIEWS = TraceViews(stats=stats, html=html, lost_at=lost_at, reasoning=reasoning, statements=statements)
