"""Several optimize studies side by side (``hopkit report STUDY STUDY ...``, before the choice rules across them): for
each, the chosen setting against trial 0 (the profile's setting) on the study's test questions, paired, and the
difference pooled over every study's test questions, resampled within each study so that no study's questions stand
in for another's.
"""

from __future__ import annotations

from pathlib import Path

from hopkit.errors import InputError
from hopkit.evaluation.paired import compare_runs, read_rows, stratified_paired_bootstrap
from hopkit.optimize.summary import read_summary, study_log


def _test_log(folder: Path, summary: dict, which: str) -> Path:
    """A study's test log of the best or default setting, where the study's folder keeps it now."""
    path = study_log(summary, f"test_{which}", folder)
    if path is None:
        raise InputError(f"{folder}: the study scored no test split; run it with one (`hopkit optimize --test SPEC`)")
    if not path.is_file():
        raise InputError(f"{folder}: its test log {path.name} is not in {path.parent}")
    return path


def studies_table(folders: list[Path], samples: int = 10_000) -> str:
    lines = ["| study | chosen knobs | dev: trial 0 / chosen | test: trial 0 / chosen (n) | chosen - trial 0 on test | "
             "LM calls/q on test: trial 0 / chosen |", "|---|---|---|---|---|---|"]
    groups = []
    for folder in folders:
        summary = read_summary(folder)
        metric = summary.get("metric", "f1")
        best = read_rows(_test_log(folder, summary, "best"))
        default = read_rows(_test_log(folder, summary, "default"))
        d = compare_runs(default, best, [metric], samples).differences[0]
        shared = [q for q in default if q in best]
        groups.append(([default[q]["metrics"][metric] for q in shared], [best[q]["metrics"][metric] for q in shared]))
        calls, dev = summary.get("lm_calls_per_question") or {}, summary["dev"]
        lines.append(f"| {folder.name} | {summary['best_knobs']} | {100 * dev['default']:.1f} / "
                     f"{100 * dev['best']:.1f} | {100 * d.mean_a:.1f} / {100 * d.mean_b:.1f} (n={len(shared)}) | "
                     f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}] | "
                     f"{calls.get('test_default', float('nan')):.2f} / {calls.get('test_best', float('nan')):.2f} |")
    diff, low, high = stratified_paired_bootstrap(groups, samples)
    lines += ["", f"pooled over {sum(len(a) for a, _ in groups)} test questions of {len(groups)} studies: chosen - "
                  f"trial 0 = {100 * diff:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}] (95% bootstrap interval, "
                  "questions resampled within each study)"]
    return "\n".join(lines)
