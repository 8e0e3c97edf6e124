"""Where IRCoT loses answers, from a run log's traces: per question, whether retrieval missed a gold
paragraph, how the chain stopped, and whether the reader went wrong with every gold paragraph in hand.

    python scripts/ircot_failures.py runs/dev100/ircot.jsonl [--list]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from hopkit.evaluation.metrics import cover_exact_match
from hopkit.text.question_form import question_form
from hopkit.programs.ircot.sentences import extract_answer


def diagnose(row: dict) -> str:
    if row.get("error"):
        return "error"
    if row["metrics"].get("em", 0) == 1:
        return "right"
    retrieved = set((row.get("prediction") or {}).get("retrieved") or [])
    if not set(row["gold_pids"]) <= retrieved:
        return "retrieval missed a gold paragraph"
    chain_answer, said = extract_answer(" ".join(row["trace"].get("chain") or []))
    if said and any(cover_exact_match(chain_answer, gold) for gold in row["answers"]):
        return "gold in hand, the chain was right, the reader wrong"
    return "gold in hand, reader wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--list", action="store_true", help="one line per question")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.log.read_text().splitlines() if line.strip()]
    causes, stops, by_form = Counter(), Counter(), Counter()
    steps = []
    for row in rows:
        cause = diagnose(row)
        causes[cause] += 1
        by_form[(question_form(row.get("question", "")), cause)] += 1
        trace = row.get("trace") or {}
        stops[trace.get("stop", "?")] += 1
        steps.append(len(trace.get("chain") or []))
        if args.list:
            reader = trace.get("reader_output") or {}
            print(f"{row['qid']} | {cause} | stop={trace.get('stop')} steps={len(trace.get('chain') or [])} | "
                  f"gold={row['answers'][:2]} | answer={row['prediction']['answer'][:60]!r} | parsed={reader.get('parsed')}")
    n = len(rows)
    print(f"{n} questions; EM-right {causes['right']}")
    for cause, count in causes.most_common():
        print(f"  {cause}: {count}")
    print("chain stops: " + ", ".join(f"{k} {v}" for k, v in stops.most_common()) +
          f"; mean sentences {sum(steps) / max(n, 1):.2f}")
    unparsed = sum(1 for r in rows if (r.get("trace") or {}).get("reader_output", {}).get("parsed") is False)
    for form in sorted({form for form, _ in by_form}):
        print(f"  {form}: " + ", ".join(f"{cause} {count}" for (f, cause), count in by_form.most_common() if f == form))
    print(f"reader outputs with no answer found (whole generation used): {unparsed}")


if __name__ == "__main__":
    main()
