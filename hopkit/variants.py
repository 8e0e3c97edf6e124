"""Ablation variants: a registry method with knob overrides. Each method's folder declares its papers' variants
(``ABLATIONS`` in hopkit/programs/<m>/method.py).

``hopkit ablate --method M`` runs M's variants on the same questions: the full method first (every
paired difference is against it), then each variant, a registry method with knob overrides. Each addition
(a knob marked ``addition`` in hopkit/knobs/declared.py) has a variant that sets it to its paper value,
and the ``paper`` profile is a variant of its own; ``--only`` picks variants by name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopkit.errors import InputError, UnknownNameError
from hopkit.knobs import KNOBS, parse_knobs
from hopkit.knobs.knob import show


@dataclass(frozen=True)
class Variant:
    name: str
    method: str
    knobs: dict[str, Any] = field(default_factory=dict)
    table: str = ""  # the paper's table the row belongs to, or "additions" / "profiles"
    profile: str | None = None  # None: the run's profile (``hopkit ablate --profile``, hopkit by default)

    def to_dict(self) -> dict:
        return {"name": self.name, "method": self.method, "knobs": dict(self.knobs), "table": self.table,
                "profile": self.profile}


def without_additions(method: str, group: str) -> list[Variant]:
    """One variant per addition the method declares, turned to its paper value, and the paper profile."""
    rows = [Variant(f"w/o {name}" if knob.paper_value is False else f"{name}={show(knob.paper_value)}", method,
                    {name: knob.paper_value}, "additions") for name, knob in KNOBS[group].items() if knob.addition]
    return [*rows, Variant("paper profile", method, {}, "profiles", profile="paper")]


def select(variants: list[Variant], names: str) -> list[Variant]:
    """The declared variants named in ``names`` (comma-separated), in the declared order, the first (the full
    method, every paired difference's baseline) always kept."""
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    known = [v.name for v in variants]
    for name in wanted:
        if name not in known:
            raise UnknownNameError("variant", name, known)
    return [v for i, v in enumerate(variants) if i == 0 or v.name in wanted]


def parse_variants(spec: str, method: str) -> list[Variant]:
    """A user's own variants: a JSON file ([{"name", "method"?, "knobs"?}, ...]) or inline
    ``NAME:KNOB=VALUE,KNOB=VALUE;NAME2:...`` (an empty knob list is the method itself)."""
    path = Path(spec)
    if spec.endswith(".json"):
        if not path.is_file():
            raise InputError(f"no variants file at {spec}")
        try:
            items = json.loads(path.read_text(encoding="utf-8"))
            return [Variant(str(i["name"]), str(i.get("method", method)), dict(i.get("knobs", {})),
                            profile=i.get("profile")) for i in items]
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise InputError(f"{spec}: expected a list of {{name, method?, knobs?}} objects ({error})") from None
    variants = []
    for part in (p.strip() for p in spec.split(";") if p.strip()):
        name, sep, knobs = part.partition(":")
        if not sep or not name.strip():
            raise InputError(f"--variants expects NAME:KNOB=VALUE,...;NAME2:..., got {part!r}")
        pairs = [k.strip() for k in knobs.split(",") if k.strip()]
        variants.append(Variant(name.strip(), method, parse_knobs(pairs)))
    if not variants:
        raise InputError("--variants is empty")
    return variants
