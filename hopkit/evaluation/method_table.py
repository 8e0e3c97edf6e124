"""Methods by datasets over a folder of run logs: each cell a method's mean score on a dataset, and its paired
difference against a baseline method on the same questions with a 95% bootstrap interval (``hopkit table``).

The folder holds one subfolder per dataset and, in each, one log per method (``DATASET/METHOD.jsonl``, or
``.jsonl.gz`` once archived), so a study's table is regenerated from the logs it keeps, whatever wrote them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hopkit.errors import InputError
from hopkit.evaluation.paired import compare_runs, read_rows

LOG_SUFFIXES = (".jsonl.gz", ".jsonl")


@dataclass(frozen=True)
class Labelled:
    """A method or dataset by the name its log or folder has, and the label its row or column shows."""
    name: str
    label: str


def parse_labels(text: str | None) -> list[Labelled] | None:
    """``name=label,name2`` (a name without a label shows itself); None when not given."""
    if not text:
        return None
    out = []
    for part in (p.strip() for p in text.split(",")):
        if part:
            name, _, label = part.partition("=")
            out.append(Labelled(name.strip(), label.strip() or name.strip()))
    return out


def method_logs(folder: Path) -> dict[str, dict[str, Path]]:
    """Every log under ``folder`` as {dataset: {method: path}}."""
    if not folder.is_dir():
        raise InputError(f"no folder at {folder}: pass a folder holding DATASET/METHOD.jsonl run logs")
    found: dict[str, dict[str, Path]] = {}
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        for path in sorted(sub.iterdir()):
            suffix = next((s for s in LOG_SUFFIXES if path.name.endswith(s)), None)
            if suffix and not path.name.startswith("."):
                found.setdefault(sub.name, {})[path.name[: -len(suffix)]] = path
    if not found:
        raise InputError(f"{folder} holds no DATASET/METHOD.jsonl run logs")
    return found


ADJUSTMENTS = ("none", "bonferroni")


def method_table(folder: Path, baseline: str, metric: str = "f1", methods: list[Labelled] | None = None,
                 datasets: list[Labelled] | None = None, samples: int = 10_000, adjust: str = "none") -> str:
    """The markdown table: a row per method (the baseline first), a column per dataset; ``*`` marks a difference
    whose interval excludes 0. A method without a log on a dataset shows ``-``. ``adjust="bonferroni"`` widens
    every interval to 1 - 0.05 / m for the table's m differences, so that all of them hold together at 95%: a table
    of many methods and datasets otherwise shows some ``*`` by chance."""
    if adjust not in ADJUSTMENTS:
        raise InputError(f"unknown adjustment {adjust!r}: one of {', '.join(ADJUSTMENTS)}")
    logs = method_logs(folder)
    datasets = datasets or [Labelled(name, name) for name in logs]
    for dataset in datasets:
        if dataset.name not in logs:
            raise InputError(f"{folder} has no dataset folder {dataset.name!r}: it has {', '.join(logs)}")
        if baseline not in logs[dataset.name]:
            raise InputError(f"{folder / dataset.name} has no log of the baseline {baseline!r}")
    names = list(dict.fromkeys(m for d in datasets for m in logs[d.name]))
    methods = methods or [Labelled(name, name) for name in [baseline] + sorted(n for n in names if n != baseline)]
    for method in methods:
        if not any(method.name in logs[d.name] for d in datasets):
            raise InputError(f"no dataset folder in {folder} holds a log of {method.name!r}: it has {', '.join(names)}")
    wanted = {method.name for method in methods} | {baseline}
    rows = {d.name: {m: read_rows(path) for m, path in logs[d.name].items() if m in wanted} for d in datasets}
    pairs = sum(1 for m in methods if m.name != baseline for d in datasets if m.name in rows[d.name])
    level = 1 - 0.05 / max(1, pairs) if adjust == "bonferroni" else 0.95
    lines = ["| method | " + " | ".join(d.label for d in datasets) + " |", "|---|" + "---|" * len(datasets)]
    for method in methods:
        cells = [_cell(rows[d.name], method.name, baseline, metric, samples, level) for d in datasets]
        lines.append(f"| {method.label} | " + " | ".join(cells) + " |")
    interval = ("95% bootstrap interval" if adjust == "none" else
                f"{100 * level:.2f}% bootstrap interval, Bonferroni-adjusted over the table's {pairs} differences so "
                "that all of them hold together at 95%")
    lines += ["", f"Each cell: {metric} (n questions) and, after the baseline ({baseline}), the paired difference "
                  f"against it on the same questions [{interval}]; * = the interval excludes 0."]
    return "\n".join(lines)


def _cell(rows: dict[str, dict[str, dict]], method: str, baseline: str, metric: str, samples: int,
          level: float = 0.95) -> str:
    """A method's score on one dataset (``rows``: each method's rows there, read once) and its paired difference."""
    if method not in rows:
        return "-"
    values = [row["metrics"].get(metric) for row in rows[method].values()]
    if any(value is None for value in values):
        raise InputError(f"the {method} log has rows without {metric!r}: name a metric its rows hold with --metric")
    cell = f"{100 * sum(values) / len(values):.1f} (n={len(values)})"
    if method != baseline:
        d = compare_runs(rows[baseline], rows[method], [metric], samples, level=level).differences[0]
        cell += f", {100 * d.diff:+.1f}{'*' if d.significant else ''} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
    return cell
