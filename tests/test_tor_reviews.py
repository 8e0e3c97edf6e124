"""scripts/tor_reviews.py: review decisions counted per action, accepts with no gold on their path, and each wrong
answer's cause."""

from __future__ import annotations

from script_loader import load_script


def _row(nodes: list[dict], evidence: list[list[str]], em: float = 0.0) -> dict:
    return {"gold_pids": ["g1", "g2"], "metrics": {"em": em},
            "trace": {"method": "tor", "nodes": nodes, "evidence": [{"pids": pids} for pids in evidence]}}


def test_counts_and_causes():
    tor = load_script("tor_reviews")
    accepted_wrong = _row([{"pid": "x", "path": ["x"], "action": "accept"},
                           {"pid": "g1", "path": ["g1"], "action": "reject"}], [["x"]])
    accepted_child = _row([{"pid": "g1", "path": ["g1"], "action": "search"},
                           {"pid": "y", "path": ["g1", "y"], "action": "accept"}], [["g1", "y"]])
    searched_only = _row([{"pid": "g2", "path": ["g2"], "action": "search"}], [])
    counts = tor.review_counts([accepted_wrong, accepted_child, searched_only])
    assert (counts["accept"], counts["accept gold"], counts["accept no gold on path"]) == (2, 0, 1)
    assert (counts["search"], counts["search gold"], counts["reject gold"]) == (2, 2, 1)
    assert tor.loss_cause(accepted_wrong) == "review: gold reviewed and rejected"
    assert tor.loss_cause(accepted_child) == "fusion: gold in the evidence, answer wrong"
    assert tor.loss_cause(searched_only) == "review: gold searched on, never accepted"
    assert tor.loss_cause(_row([{"pid": "x", "path": ["x"], "action": "accept"}], [["x"]])) == \
        "retrieval: no gold paragraph reviewed"
    assert tor.loss_cause(_row([], [], em=1.0)) == "right"
