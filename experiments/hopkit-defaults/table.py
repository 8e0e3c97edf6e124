"""The hopkit-defaults table (README, docs/results.md) from this folder's logs: F1 (n) of each method on each dev
set, and its paired F1 difference against OneR at the K tuned on the same questions.

    python experiments/hopkit-defaults/table.py
"""

from pathlib import Path

from hopkit.evaluation.paired import compare_runs, read_rows

LOGS = Path(__file__).parent / "logs"
SETS = {"hotpotqa": "HotpotQA dev100", "2wiki": "2WikiMultihopQA dev82", "musique": "MuSiQue dev100"}
METHODS = {"oner": "OneR (K tuned)", "nor": "NoR", "ircot": "IRCoT", "searchain": "SearChain", "tor": "Tree of Reviews"}

print("| method | " + " | ".join(SETS.values()) + " |")
print("|---|" + "---|" * len(SETS))
for method, label in METHODS.items():
    cells = []
    for name in SETS:
        rows, oner = read_rows(LOGS / name / f"{method}.jsonl.gz"), read_rows(LOGS / name / "oner.jsonl.gz")
        f1 = 100 * sum(r["metrics"]["f1"] for r in rows.values()) / len(rows)
        cell = f"{f1:.1f} (n={len(rows)})"
        if method != "oner":
            d = compare_runs(oner, rows, ["f1"]).differences[0]
            mark = "*" if d.significant else ""
            cell += f", {100 * d.diff:+.1f}{mark} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        cells.append(cell)
    print(f"| {label} | " + " | ".join(cells) + " |")
