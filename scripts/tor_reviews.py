"""Review decisions of a ToR or CoR run log: how often the review block accepted, rejected or searched,
how many of those reviews read a gold paragraph, and where the answers of wrong questions were lost.

    python scripts/tor_reviews.py docs/runs/dev100/tor__local-qwen1.5b.jsonl [--n 50]

A review "reads gold" when a paragraph it reviewed is one of the question's gold paragraphs: a ToR node
reviews its own paragraph (its ancestors were reviewed by their own nodes); a CoR node reviews its whole
path, every paragraph retrieved so far. Each wrong answer (EM 0) gets the first cause that fits: no gold paragraph was ever reviewed (retrieval); gold was reviewed
but none was accepted into the evidence (review: a gold paragraph was rejected, or gold was only searched on);
gold was in the evidence (fusion). An accept puts its whole path into the evidence: the accepts whose path holds
no gold paragraph at all are counted apart (what fusion reads that cannot lead to the answer).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

ACTIONS = ("accept", "reject", "search")


def reviewed_pids(row: dict, node: dict) -> set:
    """The paragraphs one review read: CoR reviews its whole path, a ToR node its own paragraph."""
    if row["trace"].get("method") == "cor":
        return set(node.get("path") or [])
    return {node.get("pid")}


def review_counts(rows: list[dict]) -> Counter:
    counts: Counter = Counter()
    for row in rows:
        gold = set(row.get("gold_pids") or [])
        for node in row["trace"]["nodes"]:
            action = node.get("action")
            if action not in ACTIONS:
                continue
            counts[action] += 1
            counts[f"{action} gold"] += bool(reviewed_pids(row, node) & gold)
            counts[f"{action} no gold on path"] += not set(node.get("path") or [node.get("pid")]) & gold
    return counts


def loss_cause(row: dict) -> str:
    if row["metrics"].get("em", 0) == 1:
        return "right"
    gold = set(row.get("gold_pids") or [])
    reviewed = {pid for node in row["trace"]["nodes"] if node.get("action") in ACTIONS
                for pid in reviewed_pids(row, node)}
    evidence = {pid for item in row["trace"]["evidence"] for pid in item["pids"]}
    if not gold & reviewed:
        return "retrieval: no gold paragraph reviewed"
    if not gold & evidence:
        rejected = any(reviewed_pids(row, n) & gold and n.get("action") == "reject" for n in row["trace"]["nodes"])
        return "review: gold reviewed and rejected" if rejected else "review: gold searched on, never accepted"
    return "fusion: gold in the evidence, answer wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--n", type=int, default=None, help="only the first N rows")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.log.read_text().splitlines() if line.strip()]
    rows = [row for row in rows if not row.get("error")][: args.n]
    counts = review_counts(rows)
    print(f"{len(rows)} questions, {sum(counts[a] for a in ACTIONS)} reviews")
    for action in ACTIONS:
        print(f"  {action:<7} {counts[action]:>4}  ({counts[action] / len(rows):.2f}/q), of a gold paragraph "
              f"{counts[f'{action} gold']}")
    print(f"  accepts with no gold paragraph on their path: {counts['accept no gold on path']} of {counts['accept']}")
    print("losses:")
    for cause, count in Counter(loss_cause(row) for row in rows).most_common():
        print(f"  {cause:<45} {count}")


if __name__ == "__main__":
    main()
