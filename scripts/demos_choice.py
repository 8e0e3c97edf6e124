"""Which demonstrations a method runs with on a dataset (issue 39): zero-shot or the dataset's in-domain source,
by paired F1 on stage 1's questions (scripts/datasets_queue.sh). In-domain wins only by a higher mean F1; a tie or a
missing log is zero-shot, the cheaper prompt.

    python scripts/demos_choice.py docs/runs/datasets/musique ircot [--explain]
"""

from __future__ import annotations

from pathlib import Path

from choice_cli import print_choice
from hopkit.evaluation.paired import compare_runs, read_rows


def choose(folder: Path, method: str, profile: str = "hopkit") -> tuple[str, str]:
    """("zeroshot" | "indomain", one line saying why)."""
    logs = {demos: folder / f"{method}-{profile}-{demos}.jsonl" for demos in ("zeroshot", "indomain")}
    if not all(path.exists() for path in logs.values()):
        return "zeroshot", "no stage-1 comparison yet"
    zero, indomain = (read_rows(logs[d]) for d in ("zeroshot", "indomain"))
    shared = [qid for qid in zero if qid in indomain]  # stage 1's questions (the loser's log stops there)
    if not shared:
        return "zeroshot", "the two logs share no question"
    result = compare_runs({q: zero[q] for q in shared}, {q: indomain[q] for q in shared}, ["f1"])
    diff = result.differences[0]
    winner = "indomain" if diff.diff > 0 else "zeroshot"
    why = (f"in-domain - zero-shot F1 {100 * diff.diff:+.1f} [{100 * diff.low:+.1f}, {100 * diff.high:+.1f}] "
           f"(n = {result.n}: {100 * diff.mean_a:.1f} -> {100 * diff.mean_b:.1f})")
    return winner, why


def main() -> None:
    print_choice(__doc__, {"method": None}, choose)


if __name__ == "__main__":
    main()
