"""The README's table of hopkit's additions: every knob marked ``addition`` in hopkit/knobs/declared.py, the methods
that have it, its hopkit and paper values, what it was designed on, and its measured effect from the ablation
folders of scripts/profiles_queue.sh (``hopkit ablate --only ...``; the full method against the variant that turns
the addition to its paper value, on the same questions).

    python scripts/additions_table.py [--ablations docs/runs/profiles] [--metric f1]

The effect is hopkit - without (so a positive number means the addition helped), with the paired 95% bootstrap
interval, and how many answers the addition changed; "-" where no ablation of that method holds the variant yet.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from hopkit.text.normalize import normalize_answer
from hopkit.evaluation.paired import read_rows
from hopkit.knobs import KNOBS
from hopkit.knobs.table import show
from hopkit.variants import ABLATIONS

LABELS = {"oner": "OneR", "ircot": "IRCoT", "searchain": "SearChain", "tor": "ToR"}


def answer(row: dict) -> str:
    """The answer as the metrics read it (case, articles and punctuation aside)."""
    return normalize_answer((row.get("prediction") or {}).get("answer", "") or "")


def variant_name(method: str, knob: str) -> str | None:
    """The declared ablation variant that sets this knob alone to its paper value."""
    for variant in ABLATIONS.get(method, []):
        if variant.table == "additions" and list(variant.knobs) == [knob]:
            return variant.name
    return None


def measured(folder: Path, method: str, knob: str, metric: str) -> str:
    summary = folder / f"ablate-{method}" / "summary.json"
    name = variant_name(method, knob)
    if not summary.is_file() or name is None:
        return "-"
    variants = json.loads(summary.read_text(encoding="utf-8"))["variants"]
    row = next((v for v in variants if v["name"] == name), None)
    if row is None or metric not in row.get("paired_vs_first", {}):
        return "-"
    mean, low, high = row["paired_vs_first"][metric]  # variant - full method
    full, without = read_rows(Path(variants[0]["log"])), read_rows(Path(row["log"]))
    changed = sum(answer(full[q]) != answer(without[q]) for q in full if q in without)
    star = "*" if -high > 0 or -low < 0 else ""
    effect, low, high = (0.0 - 100 * value for value in (mean, high, low))  # hopkit - without; no "-0.0"
    return f"{LABELS[method]} {effect:+.1f} [{low:+.1f}, {high:+.1f}]{star}, {changed}/{row['n']} changed"


def table(folder: Path, metric: str) -> str:
    lines = [f"| addition (knob) | methods | hopkit | paper | designed on | effect on {metric}, hopkit - without |",
             "|---|---|---|---|---|---|"]
    seen: dict[str, list[str]] = {}
    for method, knobs in KNOBS.items():
        for name, knob in knobs.items():
            if knob.addition:
                seen.setdefault(name, []).append(method)
    for name, methods in seen.items():
        values = {(show(KNOBS[m][name].default), show(KNOBS[m][name].paper_value)) for m in methods}
        hopkit = " / ".join(sorted({v[0] for v in values}))
        paper = " / ".join(sorted({v[1] for v in values}))
        effects = [measured(folder, m, name, metric) for m in methods]
        effects = "; ".join(e for e in effects if e != "-") or "-"
        origin = KNOBS[methods[0]][name].origin
        lines.append(f"| {KNOBS[methods[0]][name].label} (`{name}`) | "
                     f"{', '.join(LABELS[m] for m in methods)} | {hopkit} | {paper} | {origin} | {effects} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ablations", type=Path, default=Path("docs/runs/profiles"))
    parser.add_argument("--metric", default="f1")
    args = parser.parse_args()
    print(table(args.ablations, args.metric))


if __name__ == "__main__":
    main()
