"""The date comparison (hopkit/additions/date_comparison.py) replayed on finished runs: the step is pure (it reads
the reasoning the method already wrote, and makes no LM call), so applying it to a log's rows gives exactly the
answers the method gives with the knob on. Each run log gets a sibling with the step applied, which pairs with it
question by question (`hopkit compare OLD NEW`); the summary counts the step's firings, changes and their
direction per log.

    python scripts/replay_date_comparison.py docs/runs/datasets/*/*-hopkit-*.jsonl --out-dir /tmp/dated
    python scripts/replay_date_comparison.py docs/runs/datasets/*/*.jsonl docs/runs/datasets/*/*/*.jsonl \
        --root docs/runs/datasets --out-dir docs/runs/datasets-replayed   # the whole tree, for the table
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import dspy

from hopkit.evaluation.paired import read_rows


def reasoning_of(trace: dict) -> str:
    """The reasoning text the method hands its answer steps, from its trace."""
    method = trace.get("method")
    if method == "ircot":
        reader = trace.get("reader_output") or {}
        if trace.get("reader") == "none":
            return " ".join(trace.get("chain") or [])
        return (reader.get("generation") or "") if trace.get("reader") == "cot" else ""
    if method == "searchain":
        return trace.get("final_content") or ""
    if method in ("tor", "cor"):
        return trace.get("response") or ""
    return trace.get("thought") or ""  # OneR and NoR: a CoT reader's thought, else nothing


def rescored(row: dict, answer: str) -> dict:
    """The row's metrics with its answer replaced (a metric this harness does not define keeps its value)."""
    from hopkit.evaluation.metrics import METRICS

    example = dspy.Example(answers=row["answers"], gold_pids=row.get("gold_pids") or [])
    prediction = dspy.Prediction(answer=answer, retrieved=row["prediction"].get("retrieved") or [])
    return {name: METRICS[name](example, prediction) if name in METRICS else value
            for name, value in row["metrics"].items()}


def replay(rows: list[dict]) -> tuple[list[dict], dict[str, int]]:
    from hopkit.additions.date_comparison import DateComparison

    step = DateComparison()
    counts = {"questions": len(rows), "read": 0, "changed": 0, "wrong_to_right": 0, "right_to_wrong": 0}
    out = []
    for row in rows:
        trace = row.get("trace") or {}
        if row.get("error") or not trace or trace.get("profile") == "paper":  # the paper profile has it off
            out.append(row)
            continue
        before = (row.get("prediction") or {}).get("answer") or ""
        answer, record = step(row["question"], before, reasoning_of(trace))
        if record is None:
            out.append(row)
            continue
        counts["read"] += 1
        metrics = rescored(row, answer)
        if answer != before:
            counts["changed"] += 1
            counts["wrong_to_right"] += metrics.get("em", 0) > row["metrics"].get("em", 0)
            counts["right_to_wrong"] += metrics.get("em", 0) < row["metrics"].get("em", 0)
        out.append({**row, "prediction": {**row["prediction"], "answer": answer}, "metrics": metrics,
                    "trace": {**trace, "date_comparison": record}})
    return out, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="+")
    parser.add_argument("--out-dir", type=Path, required=True)
    parser.add_argument("--root", type=Path, default=None,
                        help="keep each log's path below this folder (e.g. docs/runs/datasets, so that "
                             "scripts/datasets_table.py --root OUT-DIR reads the replayed tree); default: "
                             "<its folder's name>/<its name>")
    args = parser.parse_args()
    for log in args.logs:
        rows, counts = replay(list(read_rows(log).values()))
        target = args.out_dir / (log.resolve().relative_to(args.root.resolve()) if args.root
                                 else Path(log.parent.name) / log.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        meta = log.with_suffix(".meta.json")
        if meta.exists():
            target.with_suffix(".meta.json").write_text(
                json.dumps({**json.loads(meta.read_text()), "replayed": "date_comparison"}, indent=2))
        print(f"{log}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    from hopkit.errors import exit_on_error

    exit_on_error(main)
