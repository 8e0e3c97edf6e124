"""An ablation's outputs, from its summarized variants: ``table.md`` (and ``table.tex``, ``table.csv``),
``summary.json`` and a chart (``chart.png``, ``chart.svg``) of each variant's paired difference against the first
variant with its interval, beside its own mean and its LM calls per question."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path

from hopkit.evaluation.ablation import VariantResult
from hopkit.evaluation.metrics import Metric
from hopkit.report.table_formats import tables_as


def write_outputs(results: list[VariantResult], metrics: Sequence[Metric], folder: Path, title: str,
                  chart_metric: str = "f1") -> dict[str, Path]:
    names = [m.name for m in metrics]
    table = format_table(results, names, title)
    (folder / "table.md").write_text(table, encoding="utf-8")
    (folder / "table.tex").write_text(tables_as(table, "latex") + "\n", encoding="utf-8")
    with (folder / "table.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["variant", "method", "knobs", "n"] + [f"{m}{s}" for m in names for s in ("", "_low", "_high")]
                        + [f"{m}_diff{s}" for m in names for s in ("", "_low", "_high")]
                        + ["lm_calls", "prompt_tokens", "completion_tokens", "seconds", "errors"])
        for r in results:
            writer.writerow([r.variant.name, r.variant.method, json.dumps(r.variant.knobs), r.n]
                            + [_pct(v) for m in names for v in (r.means.get(m), *r.intervals.get(m, (None, None)))]
                            + [_pct(v) for m in names for v in r.paired.get(m, (None, None, None))]
                            + [round(r.cost[k], 2)
                               for k in ("lm_calls", "prompt_tokens", "completion_tokens", "seconds")]
                            + [r.errors])
    summary = {"title": title, "variants": [{**r.variant.to_dict(), "log": str(r.log), "n": r.n, "means": r.means,
                                             "intervals": r.intervals, "paired_vs_first": r.paired, "cost": r.cost,
                                             "errors": r.errors} for r in results]}
    (folder / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    written = {"table.md": folder / "table.md", "table.tex": folder / "table.tex", "table.csv": folder / "table.csv",
               "summary.json": folder / "summary.json"}
    written.update(draw_chart(results, chart_metric if chart_metric in names else names[0], folder, title))
    return written


def format_table(results: list[VariantResult], names: list[str], title: str) -> str:
    first = results[0].variant.name if results else ""
    lines = [f"### {title}", "", f"Mean x 100 with its 95% bootstrap interval; paired difference against {first} "
             "over the questions both answered (* the interval excludes 0).", "",
             "| variant | n | " + " | ".join(names) + " | " + " | ".join(f"{m} vs {first}" for m in names)
             + " | LM calls/q | tok in/q | s/q | errors |",
             "|---|---|" + "---|" * (2 * len(names)) + "---|---|---|---|"]
    for r in results:
        cells = [f"{_pct(r.means[m])} [{_pct(r.intervals[m][0])}, {_pct(r.intervals[m][1])}]" if m in r.means else "-"
                 for m in names]
        diffs = []
        for m in names:
            if m not in r.paired:
                diffs.append("-")
                continue
            diff, low, high = r.paired[m]
            mark = " *" if low > 0 or high < 0 else ""
            diffs.append(f"{100 * diff:+.1f}{mark} [{100 * low:+.1f}, {100 * high:+.1f}]")
        lines.append(f"| {r.variant.name} | {r.n} | " + " | ".join(cells) + " | " + " | ".join(diffs)
                     + f" | {r.cost['lm_calls']:.2f} | {_as_computed(r, 'prompt_tokens', 0)} | "
                     f"{_as_computed(r, 'seconds', 1)} | {r.errors} |")
    uncosted = [r.variant.name for r in results if r.cost.get("uncosted_hits")]
    lines += ["", "Cost as computed: a replayed LM call counts what computing it cost."
              + (" Replayed calls logged before costs were kept are not counted: such a cell is a lower bound (>=), "
                 "or 'replayed' when every call was one." if uncosted else "")]
    return "\n".join(lines) + "\n"


def _as_computed(result: VariantResult, key: str, digits: int) -> str:
    """A cost cell: exact, a lower bound where some replayed calls predate the cost ledger, or 'replayed'."""
    value = f"{result.cost[key]:.{digits}f}"
    missing = result.cost.get("uncosted_hits", 0)
    if not missing:
        return value
    return "replayed" if missing >= result.cost["lm_calls"] - 1e-9 else f">= {value}"


def draw_chart(results: list[VariantResult], metric: str, folder: Path, title: str) -> dict[str, Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [r for r in results if metric in r.means]
    if not shown:
        return {}
    labels = [r.variant.name for r in shown]
    positions = list(range(len(shown)))[::-1]
    figure, (paired, own, calls) = plt.subplots(1, 3, figsize=(15, 0.5 * len(shown) + 1.8), sharey=True,
                                                gridspec_kw={"width_ratios": [3, 2, 2]})
    # the question that matters: each variant against the full method on the same questions
    diffs = [100 * r.paired[metric][0] if metric in r.paired else 0.0 for r in shown]
    spans = [[100 * (r.paired[metric][0] - r.paired[metric][1]) if metric in r.paired else 0.0 for r in shown],
             [100 * (r.paired[metric][2] - r.paired[metric][0]) if metric in r.paired else 0.0 for r in shown]]
    colours = ["#999999" if metric not in r.paired else
               ("#c44e52" if r.paired[metric][2] < 0 else "#55a868" if r.paired[metric][1] > 0 else "#4c72b0")
               for r in shown]
    paired.barh(positions, diffs, xerr=spans, color=colours, capsize=3)
    paired.axvline(0, color="#333333", linewidth=0.8)
    paired.set_yticks(positions, labels)
    paired.set_xlabel(f"{metric} x 100 minus {shown[0].variant.name}'s (95% paired interval)")
    means = [100 * r.means[metric] for r in shown]
    errors = [[100 * (r.means[metric] - r.intervals[metric][0]) for r in shown],
              [100 * (r.intervals[metric][1] - r.means[metric]) for r in shown]]
    own.barh(positions, means, xerr=errors, color="#8172b2", capsize=3)
    own.set_xlabel(f"{metric} x 100 (own 95% interval)")
    calls.barh(positions, [r.cost["lm_calls"] for r in shown], color="#dd8452")
    calls.set_xlabel("LM calls per question")
    figure.suptitle(title)
    figure.tight_layout()
    written = {}
    for suffix in ("png", "svg"):
        path = folder / f"chart.{suffix}"
        figure.savefig(path, dpi=110, bbox_inches="tight")
        written[path.name] = path
    plt.close(figure)
    return written


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}"
