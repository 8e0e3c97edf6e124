"""Issue 38's table: each method under the ``paper`` and ``hopkit`` profiles on the same questions
(scripts/profiles_queue.sh's logs), with the paired difference hopkit - paper and how many answers differ.

    python scripts/profiles_table.py [--runs docs/runs/profiles]

A row's commit is the one its run started at (queue-status; a resumed run lists each).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from statistics import mean

from hopkit.text.normalize import normalize_answer
from hopkit.evaluation.paired import compare_runs, paired_bootstrap, read_rows

LABELS = {"ircot": "IRCoT", "searchain": "SearChain", "tor": "ToR"}
METRICS = ("em", "f1", "cover_em", "recall@15")


def answer(row: dict) -> str:
    """The answer as the metrics read it (case, articles and punctuation aside)."""
    return normalize_answer((row.get("prediction") or {}).get("answer", "") or "")


def commits(status: Path, name: str) -> list[str]:
    if not status.exists():
        return []
    return list(dict.fromkeys(line.split()[3] for line in status.read_text().splitlines()
                              if line.startswith(f"start {name} ")))


def interval(values: list[float]) -> str:
    average, low, high = paired_bootstrap([0.0] * len(values), values)
    return f"{100 * average:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def rows_table(runs: Path) -> tuple[str, str]:
    head = ["method", "profile", "n", *METRICS, "LM calls/q", "tok in/q", "tok out/q", "s/q", "errors", "commit"]
    lines, pairs = [], []
    for method, label in LABELS.items():
        logs = {profile: runs / f"{method}-{profile}.jsonl" for profile in ("paper", "hopkit")}
        found = {profile: read_rows(path) for profile, path in logs.items() if path.exists()}
        for profile, rows in found.items():
            cost = [r.get("cost") or {} for r in rows.values()]
            cells = [label, profile, str(len(rows))]
            cells += [interval([float(r["metrics"].get(m, 0.0)) for r in rows.values()]) for m in METRICS]
            for key, digits in (("lm_calls", 2), ("prompt_tokens", 0), ("completion_tokens", 0), ("seconds", 1)):
                cells.append(f"{mean(float(c.get(key, 0) or 0) for c in cost):.{digits}f}")
            cells.append(str(sum(1 for r in rows.values() if r.get("error"))))
            cells.append(", ".join(commits(runs / "queue-status", f"{method}-{profile}")) or "-")
            lines.append("| " + " | ".join(cells) + " |")
        if len(found) == 2:
            result = compare_runs(found["paper"], found["hopkit"], list(METRICS))
            diffs = ", ".join(f"{d.metric} {100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
                              f"{'*' if d.significant else ''}" for d in result.differences)
            changed = sum(answer(found["paper"][q]) != answer(found["hopkit"][q])
                          for q in found["paper"] if q in found["hopkit"])
            pairs.append(f"- {label}, hopkit - paper (n = {result.n}): {diffs}; {changed} answers differ, "
                         f"{len(result.disagreements)} questions score differently")
    table = "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *lines])
    return table, "\n".join(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("docs/runs/profiles"))
    args = parser.parse_args()
    table, pairs = rows_table(args.runs)
    print(table)
    print()
    print(pairs)


if __name__ == "__main__":
    main()
