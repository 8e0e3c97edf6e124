"""How often each answer step acted on a run, and what it changed (``hopkit firings LOG``): for every step of
hopkit/additions/ that left a record in a trace, how many times it fired, how many answers it changed, and how
many it turned right to wrong and wrong to right (F1 of the answer before and after, against the gold answers)."""

from __future__ import annotations

from hopkit.additions.answer_steps import ORDER
from hopkit.additions.records import step_records
from hopkit.report.losses import best_f1
from hopkit.text.normalize import normalize_answer

FIELDS = ("fired", "changed", "right_to_wrong", "wrong_to_right", "worse", "better")


def firings(rows: list[dict]) -> dict[str, dict[str, int]]:
    counts = {step: dict.fromkeys(FIELDS, 0) for step in ORDER}
    for row in rows:
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


def format_firings(tables: dict[str, list[dict]]) -> str:
    lines = ["| log | n | step | fired | changed | right -> wrong | wrong -> right | F1 down | F1 up |",
             "|---|---|---|---|---|---|---|---|---|"]
    for label, rows in tables.items():
        for step, t in firings(rows).items():
            if t["fired"]:
                lines.append(f"| {label} | {len(rows)} | {step} | {t['fired']} | {t['changed']} | "
                             f"{t['right_to_wrong']} | {t['wrong_to_right']} | {t['worse']} | {t['better']} |")
    return "\n".join(lines)
