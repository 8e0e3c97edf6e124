"""Issue 39's no-regression check on HotpotQA dev100's first 50: each method's stage-2 log (scripts/datasets_queue.sh,
hopkit's defaults now) against the row docs/results.md gave it before issue 39, on the same questions, paired.
A method passes when its F1 now is at most 3 points below its row, or better.

    python scripts/dev100_regression.py [--root docs/runs/datasets-replayed] [--tolerance 3]

A stage-2 log that has not reached question 50 yet is compared on the questions it has (n says how many).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets_table import METHODS, best_oner, method_log  # noqa: E402

from hopkit.evaluation.paired import compare_runs, read_rows  # noqa: E402

# The rows of docs/results.md each method is held to: the latest first-50 row of each before issue 39
# ("Second stage: the first 50 questions", SearChain's and ToR's sections; the restated yes/no check is their last).
REFERENCE = {
    "oner": "docs/runs/dev100/oner-k7-restated__local-qwen1.5b.jsonl",
    "ircot": "docs/runs/dev100/ircot-zeroshot-cot-yesno__local-qwen1.5b.jsonl",
    "searchain": "docs/runs/dev100/searchain-restated__local-qwen1.5b.jsonl",
    "tor": "docs/runs/dev100/tor-restated__local-qwen1.5b.jsonl",
    "cor": "docs/runs/dev100/cor-restated__local-qwen1.5b.jsonl",
}
FIRST = 50


def first_rows(path: Path, count: int = FIRST) -> dict[str, dict]:
    rows = read_rows(path)
    return dict(list(rows.items())[:count])


def current_rows(folder: Path, method: str) -> tuple[str, dict[str, dict]]:
    if method == "oner":  # at the K of the row it is held to (the code's change, not the K's), else its best K
        k = re.search(r"oner-k(\d+)", REFERENCE["oner"]).group(1)
        same_k = sorted((folder / "oner-sweep-hopkit").glob(f"oner-k{k}-*.jsonl"))
        if same_k:
            return f"oner-sweep-hopkit K={k}", read_rows(same_k[0])
        best = best_oner(folder, "hopkit")
        return (f"oner-sweep-hopkit K={best[0]}", best[1]) if best else ("-", {})
    path, rows = method_log(folder, method, "hopkit")
    return (path.name if path else "-"), rows


def line(method: str, folder: Path, tolerance: float) -> str:
    reference = first_rows(Path(REFERENCE[method]))
    name, rows = current_rows(folder, method)
    shared = [q for q in reference if q in rows]
    if not shared:
        return f"| {METHODS[method]} | {name} | 0 | - | - | - | not run yet |"
    before = {q: reference[q] for q in shared}
    now = {q: rows[q] for q in shared}
    f1_before, f1_now = (100 * mean(r["metrics"]["f1"] for r in side.values()) for side in (before, now))
    d = compare_runs(before, now, ["f1"]).differences[0]
    verdict = "holds" if f1_now >= f1_before - tolerance else f"**{f1_now - f1_before:+.1f}: regressed**"
    if len(shared) < FIRST:
        verdict += f" (so far: {len(shared)} of {FIRST})"
    return (f"| {METHODS[method]} | {name} | {len(shared)} | {f1_before:.1f} | {f1_now:.1f} | "
            f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}] | {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("docs/runs/datasets-replayed"))
    parser.add_argument("--tolerance", type=float, default=3.0)
    args = parser.parse_args()
    folder = args.root / "hotpotqa"
    print("| method | log now | n | F1 row before | F1 now | now - before, paired 95% | check |")
    print("|---|---|---|---|---|---|---|")
    for method in REFERENCE:
        print(line(method, folder, args.tolerance))


if __name__ == "__main__":
    main()
