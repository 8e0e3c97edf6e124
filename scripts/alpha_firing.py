"""How often SearChain's alpha verification fired on long-form answers, and what it changed.

    python scripts/alpha_firing.py LOG.jsonl [LOG2.jsonl ...] [--n 20]

For each run log of SearChain with ``answer_form=long``: the nodes IR checked against alpha (answered by the
LM, reader confidence above theta: the paper's condition for the ROUGE-L comparison), how many of them were
corrected (ROUGE-L between the LM's answer and the reader's document below alpha), ROUGE-L of every checked
node against its document (recomputed from the trace and the bundled corpus), the questions with at least one
correction, and the mean of the run's metrics over the questions with and without a correction.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from statistics import mean, median, quantiles

from hopkit.data.registry import load_dataset_spec
from hopkit.text.similarity import rouge_l

CORRECTED = "verified-corrected"
JUDGED = ("pass", CORRECTED)
SWEEP = (0.2, 0.5)  # the alpha range swept on the long-form task: a node whose ROUGE-L lies here can flip


def read_rows(path: Path, n: int | None) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    final: dict[str, dict] = {}
    for row in rows:
        if row["qid"] not in final or (final[row["qid"]].get("error") and not row.get("error")):
            final[row["qid"]] = row
    ordered = list(final.values())
    return ordered[:n] if n else ordered


def checked_nodes(row: dict, theta: float) -> list[dict]:
    tree = ((row.get("trace") or {}).get("tree") or {}).get("nodes", [])
    return [node for node in tree if not node["unsolved"] and node["action"] in JUDGED
            and node.get("confidence") is not None and node["confidence"] > theta]


def summarize(path: Path, n: int | None, corpus) -> dict:
    rows = read_rows(path, n)
    trace0 = next((r["trace"] for r in rows if r.get("trace")), {})
    theta, alpha = trace0.get("theta"), trace0.get("alpha")
    checked, fired, rouges, fired_rows = 0, 0, [], []
    for row in rows:
        nodes = checked_nodes(row, theta)
        checked += len(nodes)
        row_fired = sum(node["action"] == CORRECTED for node in nodes)
        fired += row_fired
        fired_rows.append(row_fired > 0)
        rouges += [rouge_l(node["lm_answer"], corpus[node["pid"]].text) for node in nodes
                   if node.get("pid") and node["pid"] in corpus]
    metric = next(iter(rows[0]["metrics"])) if rows else "rouge_l"
    with_fire = [r["metrics"][metric] for r, f in zip(rows, fired_rows) if f]
    without = [r["metrics"][metric] for r, f in zip(rows, fired_rows) if not f]
    return {"log": str(path), "n": len(rows), "alpha": alpha, "theta": theta, "answer_form": trace0.get("answer_form"),
            "checked": checked, "fired": fired, "questions_fired": sum(fired_rows),
            "rouge_median": median(rouges) if rouges else None, "rouge_p10_p90": _spread(rouges),
            "rouge_in_sweep": sum(SWEEP[0] <= r < SWEEP[1] for r in rouges), "metric": metric,
            "mean": 100 * mean(r["metrics"][metric] for r in rows) if rows else None,
            "mean_fired": 100 * mean(with_fire) if with_fire else None,
            "mean_not_fired": 100 * mean(without) if without else None,
            "rounds": mean(((r.get("trace") or {}).get("stats") or {}).get("rounds", 0) for r in rows) if rows else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--n", type=int)
    parser.add_argument("--dataset", default="bundled:long-form:dev", help="for the corpus the pids point into")
    args = parser.parse_args()
    corpus = load_dataset_spec(args.dataset).corpus
    head = ["log", "alpha", "n", "checked nodes", "fired", "questions fired", "median ROUGE-L (checked)",
            "p10-p90", f"in [{SWEEP[0]}, {SWEEP[1]})",
            "metric", "mean", "fired q mean", "other q mean", "rounds/q"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for path in args.logs:
        s = summarize(path, args.n, corpus)
        cells = [path.name, s["alpha"], s["n"], s["checked"], s["fired"], s["questions_fired"],
                 _num(s["rouge_median"], 3), s["rouge_p10_p90"], s["rouge_in_sweep"], s["metric"], _num(s["mean"]), _num(s["mean_fired"]),
                 _num(s["mean_not_fired"]), _num(s["rounds"], 2)]
        print("| " + " | ".join(str(c) for c in cells) + " |")


def _spread(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    deciles = quantiles(values, n=10)
    return f"{deciles[0]:.3f}-{deciles[-1]:.3f}"


def _num(value, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


if __name__ == "__main__":
    main()
