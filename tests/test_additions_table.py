"""The README's additions table: one row per declared addition, and an effect read the right way round from
an ablation folder (hopkit - without, so a positive number means the addition helped)."""

from __future__ import annotations

import json
from pathlib import Path
from script_loader import load_script

from hopkit.knobs import KNOBS


def _log(path: Path, answers: list[str], f1: list[float]) -> str:
    rows = [{"qid": f"q{i}", "prediction": {"answer": a}, "metrics": {"f1": s}} for i, (a, s) in
            enumerate(zip(answers, f1))]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return str(path)


def test_every_addition_has_a_row_and_the_effect_is_hopkit_minus_without(tmp_path):
    folder = tmp_path / "ablate-ircot"
    folder.mkdir()
    full = _log(folder / "full.jsonl", ["yes", "no", "Paris"], [1.0, 1.0, 1.0])
    without = _log(folder / "without.jsonl", ["1901", "no", "Paris"], [0.0, 1.0, 1.0])
    summary = {"variants": [{"name": "IRCoT (CoT reader)", "log": full, "n": 3, "paired_vs_first": {}},
                            {"name": "w/o yes_no_check", "log": without, "n": 3,
                             "paired_vs_first": {"f1": [-1 / 3, -1.0, 0.0]}}]}
    (folder / "summary.json").write_text(json.dumps(summary))
    table = load_script("additions_table").table(tmp_path, "f1")
    additions = {name for knobs in KNOBS.values() for name, knob in knobs.items() if knob.addition}
    assert all(f"(`{name}`)" in table for name in additions)
    row = next(line for line in table.splitlines() if "(`yes_no_check`)" in line)
    assert "IRCoT +33.3 [+0.0, +100.0], 1/3 changed" in row
    assert next(line for line in table.splitlines() if "(`check_accept`)" in line).endswith("| - |")
