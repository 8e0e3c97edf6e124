"""What differs between the settings of two run logs (their ``.meta.json``), so that a paired difference says what
it measures: ``hopkit compare`` prints it under the table. A pair that differs in more than the one thing under
study (the retriever and the demonstrations as well as the method) measures them together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hopkit.report.runs import settings
from hopkit.spec import MECHANICS

# recorded for the run, not a setting of it: the questions picked, how it ran, where it wrote
_NOT_SETTINGS = MECHANICS | {"door", "out", "started", "resumed", "prompt_set", "replayed"}
SHOWN = 8


def _flat(meta: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in meta.items():
        if key in _NOT_SETTINGS:
            continue
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def setting_differences(path_a: Path, path_b: Path) -> list[str]:
    """``key: A -> B`` for each setting the two logs' metadata record differently; a log without metadata says so.
    A run spec's copy of a top-level field (``spec.lm`` beside ``lm``) counts once."""
    metas = [settings(path) for path in (path_a, path_b)]
    missing = [label for label, meta in zip("AB", metas) if not meta]
    if missing:
        return [f"{' and '.join(missing)} ha{'ve' if len(missing) > 1 else 's'} no .meta.json: what else differs "
                "is unknown"]
    a, b = _flat(metas[0]), _flat(metas[1])
    lines: list[str] = []
    unrecorded: dict[str, list[str]] = {"A": [], "B": []}
    for key in sorted(set(a) | set(b)):
        if key.startswith("spec.") and key.removeprefix("spec.") in a.keys() | b.keys():
            continue
        knob = key.startswith(("knobs.", "spec.knobs."))  # a knob at its profile's value is not written down
        if not knob and (key not in a or key not in b):
            unrecorded["A" if key not in a else "B"].append(key)
        elif a.get(key) != b.get(key):
            lines.append(f"{key}: {_shown(a.get(key))} -> {_shown(b.get(key))}")
    for label, keys in unrecorded.items():
        if keys:
            lines.append(f"{label} does not record {', '.join(keys[:4])}" + (" ..." if len(keys) > 4 else ""))
    return lines


def _shown(value: Any) -> str:
    text = "the profile's" if value is None else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def differences_line(path_a: Path, path_b: Path) -> str:
    lines = setting_differences(path_a, path_b)
    if not lines:
        return "settings: A and B record the same settings (.meta.json)"
    if len(lines) == 1 and "no .meta.json" in lines[0]:
        return f"settings: {lines[0]}"
    more = f"; and {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""
    return f"settings that differ, A -> B ({len(lines)}): " + "; ".join(lines[:SHOWN]) + more
