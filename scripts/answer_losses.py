"""Where each method loses its answers on each dataset (issue 39): counts of wrong answers (EM 0) by the step that
lost them, read from the traces of scripts/datasets_queue.sh's logs.

    python scripts/answer_losses.py [--root docs/runs/datasets] [--profile hopkit]

Steps, the first that fits: error; final step (an answer step turned a right answer wrong); retrieval (no gold
paragraph reached the method: for IRCoT and OneR a gold paragraph missing from what was read, for ToR none
reviewed); chain or plan (SearChain: its nodes' queries did not reach every gold paragraph); review (ToR: gold reviewed but never
accepted; SearChain: verification corrected a right node away); reader (gold in hand and the answer wrong:
IRCoT's and OneR's reader, ToR's fusion, SearChain's reader with every gold paragraph read); SearChain's final answer losing a gold answer that was
in its tree (or giving it in a longer form) counts as the final step.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_firings import best_f1  # noqa: E402
from datasets_table import DATASETS, method_rows  # noqa: E402

from hopkit.additions.records import step_records  # noqa: E402

STEPS = ("error", "final step", "retrieval", "chain or plan", "review", "reader")


def lost_at(row: dict, method: str) -> str | None:
    """The step that lost a wrong answer; None for a right one."""
    if row.get("error"):
        return "error"
    if row["metrics"].get("em", 0) == 1:
        return None
    if any(best_f1(str(r["before"]), row["answers"]) == 1.0 > best_f1(str(r["after"]), row["answers"])
           for _, r in step_records(row.get("trace") or {})):
        return "final step"
    if method == "searchain":
        from searchain_failures import diagnose

        cause = diagnose(row)
        return {"planner": "chain or plan", "planner, later hop": "chain or plan", "verification": "review",
                "reader": "reader"}.get(cause, "final step")
    if method in ("tor", "cor"):
        from tor_reviews import loss_cause

        cause = loss_cause(row)
        return cause.split(":")[0] if not cause.startswith("fusion") else "reader"
    read = set((row.get("prediction") or {}).get("retrieved") or [])
    return "retrieval" if not set(row.get("gold_pids") or []) <= read else "reader"


def table(root: Path, profile: str) -> str:
    lines = ["| dataset | method | n | right | " + " | ".join(STEPS) + " |", "|" + "---|" * (4 + len(STEPS))]
    for name, label in DATASETS.items():
        for method in ("oner", "ircot", "searchain", "tor", "cor"):
            rows = (method_rows(root / name, method, profile) if method != "oner"
                    else _best_oner(root / name, profile))
            if not rows:
                continue
            causes = Counter(lost_at(row, method) for row in rows.values())
            lines.append(f"| {label} | {method} | {len(rows)} | {causes[None]} | "
                         + " | ".join(str(causes[s]) for s in STEPS) + " |")
    return "\n".join(lines)


def _best_oner(folder: Path, profile: str) -> dict[str, dict]:
    from datasets_table import best_oner

    found = best_oner(folder, profile)
    return found[1] if found else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("docs/runs/datasets"))
    parser.add_argument("--profile", default="hopkit", choices=["hopkit", "paper"])
    args = parser.parse_args()
    print(table(args.root, args.profile))


if __name__ == "__main__":
    main()
