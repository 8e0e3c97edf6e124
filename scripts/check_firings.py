"""How often each answer check acted on a run, and whether it helped (issue 39: the additions on other question
forms). For every log and every step of the additions room (short_form, yes_no_check, option_check,
date_comparison) that left a record in a trace: how many times it fired, how many answers it changed, and how many
it turned from right to wrong and from wrong to right (F1 of the answer before and after the step against the gold
answers).

    python scripts/check_firings.py docs/runs/datasets/*/*-hopkit-*.jsonl
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from hopkit.additions.answer_steps import ORDER
from hopkit.additions.records import step_records
from hopkit.evaluation.paired import read_rows
from hopkit.text.normalize import normalize_answer
from hopkit.text.similarity import token_f1

STEPS = ORDER


def best_f1(answer: str, golds: list[str]) -> float:
    return max((token_f1(answer or "", gold) for gold in golds), default=0.0)


def count(rows: dict[str, dict]) -> dict[str, dict[str, int]]:
    counts = {step: {"fired": 0, "changed": 0, "right_to_wrong": 0, "wrong_to_right": 0, "worse": 0, "better": 0}
              for step in STEPS}
    for row in rows.values():
        for step, record in step_records(row.get("trace") or {}):
            tally = counts[step]
            tally["fired"] += 1
            before, after = str(record["before"] or ""), str(record["after"] or "")
            if normalize_answer(before) == normalize_answer(after):
                continue
            tally["changed"] += 1
            f1_before, f1_after = best_f1(before, row["answers"]), best_f1(after, row["answers"])
            tally["right_to_wrong"] += f1_before == 1.0 and f1_after < 1.0
            tally["wrong_to_right"] += f1_before < 1.0 and f1_after == 1.0
            tally["worse"] += f1_after < f1_before
            tally["better"] += f1_after > f1_before
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="+")
    args = parser.parse_args()
    print("| log | n | step | fired | changed | right -> wrong | wrong -> right | F1 down | F1 up |")
    print("|---|---|---|---|---|---|---|---|---|")
    common = Path(os.path.commonpath([path.resolve().parent for path in args.logs]))
    for path in args.logs:
        rows = read_rows(path)
        label = path.resolve().with_suffix("").relative_to(common.parent)
        for step, tally in count(rows).items():
            if tally["fired"]:
                print(f"| {label} | {len(rows)} | {step} | {tally['fired']} | "
                      f"{tally['changed']} | {tally['right_to_wrong']} | {tally['wrong_to_right']} | "
                      f"{tally['worse']} | {tally['better']} |")


if __name__ == "__main__":
    main()
