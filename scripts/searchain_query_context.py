"""Would SearChain's later queries reach more gold paragraphs if they carried the answers found before them? A
counterfactual on a run's traces, retrieval only (no LM): every node IR processed is retrieved again with its own
query (as the run did) and with its query followed by the answers of the earlier nodes of its chain, and the gold
paragraphs each reaches are counted per question. The chain itself is held fixed, so this tests the premise of a
query-context knob, not its answers.

    python scripts/searchain_query_context.py docs/runs/datasets/musique/searchain-hopkit-zeroshot.jsonl \
        --dataset musique:validation@../shared/data/musique/dev100.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from statistics import mean

from hopkit.evaluation.paired import read_rows

NOT_READ = {"not-reached", "skipped-duplicate"}
READER_ANSWERED = {"verified-corrected", "completed", "completed-from-record"}


def node_answer(node: dict) -> str:
    """The answer a node carries into the rest of its chain after IR: the reader's where IR corrected or completed
    it, else the LM's."""
    if node["action"] in READER_ANSWERED:
        return node.get("reader_answer") or ""
    return node.get("lm_answer") or node.get("reader_answer") or ""


def chain_queries(trace: dict) -> list[tuple[str, str]]:
    """(the node's query, the query with the earlier answers of its chain) for each node IR processed."""
    nodes = {n["id"]: n for n in trace["tree"]["nodes"]}
    pairs = []
    for branch in trace["tree"]["branches"]:
        earlier: list[str] = []
        for node in (nodes[i] for i in branch["node_ids"]):
            if node["action"] not in NOT_READ and node.get("pid"):
                context = " ".join(a for a in earlier if a and a.lower() not in node["query"].lower())
                pairs.append((node["query"], f"{node['query']} {context}".strip()))
            answer = node_answer(node)
            if answer and node["action"] != "not-reached":
                earlier.append(answer)
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--dataset", required=True, help="the run's dataset spec (for its index)")
    parser.add_argument("--k", type=int, default=None, help="paragraphs per node (default: the run's k)")
    args = parser.parse_args()
    from hopkit.api import load_dataset
    from hopkit.paths import default_index_path
    from hopkit.retrieval.loading import load_index

    meta = json.loads(args.log.with_suffix(".meta.json").read_text())
    backend = meta.get("retriever", "bm25")
    index = load_index(default_index_path(load_dataset(args.dataset).corpus_name, backend))
    counts = {"own": [], "with earlier answers": []}
    complete = {"own": 0, "with earlier answers": 0}
    changed = 0
    rows = list(read_rows(args.log).values())
    cache: dict[tuple[str, int], list[str]] = {}  # a node with no earlier answers asks the same query twice

    def reached(query: str, k: int) -> list[str]:
        if (query, k) not in cache:
            cache[query, k] = [p.pid for p in index.retrieve(query, k)]
        return cache[query, k]

    for row in rows:
        trace, gold = row["trace"], set(row["gold_pids"])
        k = args.k or trace.get("k", 1)
        pairs = chain_queries(trace)
        changed += sum(own != ctx for own, ctx in pairs)
        for name, position in (("own", 0), ("with earlier answers", 1)):
            found = {pid for pair in pairs for pid in reached(pair[position], k)}
            counts[name].append(len(gold & found) / len(gold) if gold else 0.0)
            complete[name] += gold <= found
    print(f"{args.log} ({backend}, k = {args.k or rows[0]['trace'].get('k', 1)}, n = {len(rows)}; "
          f"{changed} node queries gained context)")
    for name in counts:
        print(f"  {name:22s} gold recall {100 * mean(counts[name]):.1f}, every gold paragraph reached on "
              f"{complete[name]} of {len(rows)}")


if __name__ == "__main__":
    from hopkit.errors import exit_on_error

    exit_on_error(main)
