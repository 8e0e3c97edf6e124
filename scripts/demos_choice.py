"""Which demonstrations a method runs with on a dataset (issue 39), by mean F1 on stage 1's questions
(scripts/datasets_queue.sh): zero-shot, hopkit's own demonstrations (`hopkit:wiki`, stage 1d) or the dataset's
in-domain source, among the logs that exist. Only the questions every log holds count; a tie goes to the cheaper
prompt (zero-shot, then hopkit's ten demonstrations, then the in-domain file), and a missing comparison is
zero-shot. Each candidate's paired difference against zero-shot is printed under --explain. Where stage 2 grew
zero-shot's log and others past stage 1, the choice is made again among those on the questions stage 1 never read
(a choice made on 20 questions must hold on the ones it did not see; a tie: the cheaper prompt).

    python scripts/demos_choice.py docs/runs/datasets/musique ircot [--explain]
"""

from __future__ import annotations

from pathlib import Path
from statistics import mean

from choice_cli import print_choice
from hopkit.evaluation.paired import compare_runs, read_rows

CANDIDATES = ("zeroshot", "wikidemos", "indomain")  # cheapest prompt first: a tie goes to the earlier one
LABEL = {"zeroshot": "zero-shot", "wikidemos": "hopkit:wiki", "indomain": "in-domain"}


def choose(folder: Path, method: str, profile: str = "hopkit", held_out: bool = True) -> tuple[str, str]:
    """(one of CANDIDATES, one line saying why); ``held_out=False``: stage 1's winner without the check on the
    questions grown after it."""
    logs = {demos: folder / f"{method}-{profile}-{demos}.jsonl" for demos in CANDIDATES}
    rows = {demos: read_rows(path) for demos, path in logs.items() if path.exists()}
    if "zeroshot" not in rows or len(rows) < 2:
        return "zeroshot", "no stage-1 comparison yet"
    shared = set.intersection(*(set(r) for r in rows.values()))  # stage 1's questions (a loser's log stops there)
    if not shared:
        return "zeroshot", "the logs share no question"
    winner, why = _best(rows, shared)
    grown = {demos: r for demos, r in rows.items() if set(r) - shared}  # stage 2 grew these past stage 1
    unseen = set.intersection(*(set(r) for r in grown.values())) - shared if len(grown) >= 2 else set()
    if "zeroshot" not in grown or not unseen or not held_out:
        return winner, why
    held, check = _best(grown, unseen)
    verdict = "held" if held == winner else f"not held: {LABEL[held]}"
    return held, f"{why}; on the {len(unseen)} questions stage 1 never saw, {check} ({verdict})"


def _best(rows: dict[str, dict], questions: set[str]) -> tuple[str, str]:
    """The candidate with the highest mean F1 on the questions (a tie: the cheaper prompt), and why."""
    f1 = {demos: mean(r[q]["metrics"]["f1"] for q in questions) for demos, r in rows.items()}
    winner = max(rows, key=lambda demos: (f1[demos], -CANDIDATES.index(demos)))
    parts = []
    for demos in rows:
        if demos == "zeroshot":
            continue
        diff = compare_runs({q: rows["zeroshot"][q] for q in questions}, {q: rows[demos][q] for q in questions},
                            ["f1"]).differences[0]
        parts.append(f"{LABEL[demos]} - zero-shot F1 {100 * diff.diff:+.1f} [{100 * diff.low:+.1f}, "
                     f"{100 * diff.high:+.1f}]")
    means = ", ".join(f"{LABEL[d]} {100 * f1[d]:.1f}" for d in rows)
    return winner, f"{'; '.join(parts)} (n = {len(questions)}: {means})"


def main() -> None:
    print_choice(__doc__, {"method": None}, choose)


if __name__ == "__main__":
    main()
