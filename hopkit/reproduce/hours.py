"""What each reproduce study has cost the machine so far, from its rows: the hours its tune grid and its test split
took and the pace a question, as a queue's report states them (``hopkit reproduce-table`` prints a line a study under
the table). These are wall seconds as the harness recorded them, so they carry whatever shared the cores; a shared
IRCoT chain is counted once, not once a reader (hopkit/reproduce/shared_work.py)."""

from __future__ import annotations

import statistics
from pathlib import Path

from hopkit.evaluation.run_log import row_seconds
from hopkit.reproduce.progress import count_units, setting_logs, test_rows


def hours_line(folder: Path) -> str | None:
    """``NAME: tune H h (U question-settings, S s each); test H h (N questions, S s each)``, or None
    for a folder with no rows yet; a grid whose settings share IRCoT chains counts ``chain-questions`` (one chain
    on one question, read by every reader)."""
    units: dict[tuple, float] = {}
    for tune in sorted(folder.glob("tune-*")):
        for knobs, rows in setting_logs(tune):
            count_units(units, tune.name, knobs, rows, row_seconds)
    tests = [row_seconds(row) for rows in test_rows(folder) for row in rows]
    parts = [f"{label} {sum(seconds) / 3600:.1f} h ({len(seconds)} {unit}, {statistics.mean(seconds):.0f} s each)"
             for label, seconds, unit in (("tune", list(units.values()), _tune_unit(units)),
                                          ("test", tests, "questions")) if seconds]
    return f"{folder.name}: " + "; ".join(parts) if parts else None


def _tune_unit(units: dict[tuple, float]) -> str:
    """What one tune unit is: a question of a shared chain when every unit is one (count_units keys carry it)."""
    shared = [chain_shared for (_tune, _group, chain_shared), _qid in units]
    return "chain-questions" if shared and all(shared) else "question-settings"
