"""The knobs of a method as rows a person reads: ``hopkit knobs`` and the README's table come from here."""

from __future__ import annotations

from typing import Any

from hopkit.knobs.knob import check_profile, show
from hopkit.knobs.profiles import declared, resolve


def knob_rows(group: str, profile: str, given: dict[str, Any] | None = None, reader: Any = None) -> list[dict]:
    """One row per knob: name, effective value (theta as the reader sets it), range, hopkit and paper values,
    addition or not, what it does and where it came from."""
    check_profile(profile)
    values = resolve(group, profile, given or {})
    rows = []
    for name, knob in declared(group).items():
        value, note = values[name], ""
        if name == "theta" and value is None:
            from hopkit.knobs.theta import default_theta

            value = default_theta(reader)
            note = " (the reader's calibrated value)" if getattr(reader, "calibrated_theta", None) is not None \
                else " (the paper's 0.82: this reader declares no calibrated value)"
        rows.append({"name": name, "value": f"{show(value)}{note}", "range": knob.range_text,
                     "hopkit": show(knob.default), "paper": show(knob.paper_value),
                     "kind": "addition" if knob.addition else "paper", "doc": knob.doc, "origin": knob.origin})
    return rows


def render_rows(rows: list[dict]) -> str:
    lines = []
    for row in rows:
        lines.append(f"{row['name']} = {row['value']}   [{row['range']}; hopkit {row['hopkit']}, paper {row['paper']}"
                     f"{'; addition' if row['kind'] == 'addition' else ''}]")
        lines.append(f"    {row['doc']}")
        if row["origin"]:
            lines.append(f"    from: {row['origin']}")
    return "\n".join(lines)

