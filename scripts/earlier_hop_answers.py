"""Reader losses that answer an earlier hop: of the wrong answers (EM 0) given with every gold paragraph read,
how many name the answer of one of the question's earlier hops (the bridge entity) instead of the last hop's.
Reads MuSiQue's decompositions from the dataset file (each hop's answer), and the logs' rows.

    python scripts/earlier_hop_answers.py ../shared/data/musique/dev100.jsonl LOG [LOG ...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from hopkit.text.normalize import normalize_answer


def earlier_hop(answer: str, hop_answers: list[str]) -> str | None:
    """The earlier hop's answer the given answer names (its words whole, as the answer metrics normalise them),
    or None."""
    given = f" {normalize_answer(answer)} "
    for hop in hop_answers:
        words = normalize_answer(hop)
        if words and f" {words} " in given:
            return hop
    return None


def earlier_hops_by_question(dataset: Path) -> dict[str, list[str]]:
    """question -> the answers of every hop but the last (MuSiQue's question_decomposition)."""
    hops = {}
    for line in dataset.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            hops[row["question"]] = [h["answer"] for h in row.get("question_decomposition", [])[:-1]]
    return hops


def count(rows: list[dict], hops: dict[str, list[str]]) -> tuple[int, list[tuple[str, str, str]]]:
    """(wrong answers with every gold paragraph read, [(question, answer, the earlier hop it names)])."""
    wrong_in_hand, named = 0, []
    for row in rows:
        read = set((row.get("prediction") or {}).get("retrieved") or [])
        if row.get("error") or row["metrics"].get("em", 0) == 1 or not set(row.get("gold_pids") or []) <= read:
            continue
        wrong_in_hand += 1
        answer = str((row.get("prediction") or {}).get("answer") or "")
        hop = earlier_hop(answer, hops.get(row["question"], []))
        if hop:
            named.append((row["question"], answer, hop))
    return wrong_in_hand, named


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("logs", type=Path, nargs="+")
    args = parser.parse_args()
    hops = earlier_hops_by_question(args.dataset)
    for log in args.logs:
        rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
        wrong_in_hand, named = count(rows, hops)
        print(f"{log}: {len(rows)} questions, {wrong_in_hand} wrong with every gold paragraph read, "
              f"{len(named)} of them an earlier hop's answer")
        for question, answer, hop in named:
            print(f"    {question[:90]!r}: {answer[:60]!r} (hop answer {hop!r})")


if __name__ == "__main__":
    main()
