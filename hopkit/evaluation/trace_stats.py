"""The numbers a run's table averages, read from each program's trace (programs record what happened; what is
counted from it is decided here, beside the metrics)."""

from __future__ import annotations

from collections.abc import Callable

from hopkit.additions.answer_steps import step_counts
from hopkit.programs.searchain.tree import COMPLETED, CORRECTED, FILLED, PASS, UNANSWERED
from hopkit.programs.tree_of_reviews.review import ACCEPT, REJECT, SEARCH
from hopkit.programs.tree_of_reviews.tree import PRUNED_REPETITIVE


def ircot_stats(trace: dict) -> dict[str, int]:
    reader = trace.get("reader_output") or {}
    counts = step_counts(reader)
    return {"sentences": len(trace.get("chain") or []),
            "reason_parse_failures": int(trace.get("stop") == "reason_parse_failure"),
            "reader_parse_failures": int("parse_error" in reader),
            **{name: counts[name] for name in ("yes_no_checks", "option_checks", "date_comparisons")}}


def searchain_stats(trace: dict) -> dict[str, int]:
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


def tor_stats(trace: dict) -> dict[str, float]:
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
            "unsupported_accepts": count(lambda n: n.get("unsupported_accept")),
            "overruled_rejects": count(lambda n: n.get("overruled_reject")),
            "written_queries": count(lambda n: n.get("query_source") == "written"),
            "unexpanded_searches": count(lambda n: n.get("query_source") == "none")}


STATS: dict[str, Callable[[dict], dict]] = {"ircot": ircot_stats, "searchain": searchain_stats, "tor": tor_stats,
                                            "cor": tor_stats}


def stats_of(trace: dict | None) -> dict:
    """A trace's numbers: a log written before stats were read here keeps its own ``stats``."""
    trace = trace or {}
    if "stats" in trace:
        return trace["stats"]
    counter = STATS.get(trace.get("method", ""))
    return counter(trace) if counter else {}
