"""The papers' ablation variants per method, declared once beside the knobs (hopkit/knobs/declared.py).

``hopkit ablate --method M`` runs ``ABLATIONS[M]`` on the same questions: the full method first (every
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


def _without(method: str, group: str) -> list[Variant]:
    """One variant per addition the method declares, turned to its paper value, and the paper profile."""
    rows = [Variant(f"w/o {name}" if knob.paper_value is False else f"{name}={show(knob.paper_value)}", method,
                    {name: knob.paper_value}, "additions") for name, knob in KNOBS[group].items() if knob.addition]
    return [*rows, Variant("paper profile", method, {}, "profiles", profile="paper")]





ABLATIONS: dict[str, list[Variant]] = {
    "searchain": [  # SearChain's Table 4 (effect of IR) and its interaction ablations
        Variant("SearChain", "searchain"),
        Variant("w/o IR", "searchain-noir"),
        Variant("w/o verification", "searchain-noverify"),
        Variant("w/o completion", "searchain-nocomplete"),
        *_without("searchain", "searchain"),
    ],
    "ircot": [  # IRCoT's readers (Appendix A, Table 3), its reader ablation (Table 1) and the baselines
        Variant("IRCoT (CoT reader)", "ircot", {"answer_reader": "cot"}),
        Variant("IRCoT (Direct reader)", "ircot", {"answer_reader": "direct"}, "readers"),
        Variant("IRCoT w/o reader", "ircot-noreader", {}, "reader ablation"),
        Variant("OneR", "oner", {}, "baselines"),
        Variant("NoR", "nor", {}, "baselines"),
        *_without("ircot", "ircot"),
    ],
    "tor": [  # ToR's Tables 3-6, our additions, plus CoR
        Variant("ToR", "tor"),
        Variant("fusion: analysis", "tor", {"fusion": "analysis"}, "3 fusion"),
        Variant("fusion: paragraph", "tor", {"fusion": "paragraph"}, "3 fusion"),
        Variant("expansion: direct", "tor", {"expansion": "direct"}, "4 expansion"),
        Variant("expansion: CoT", "tor", {"expansion": "cot"}, "4 expansion"),
        Variant("w/o repetitive pruning", "tor", {"repetitive_pruning": False}, "5 pruning"),
        Variant("w/o relevance pruning", "tor", {"relevance_pruning": False}, "5 pruning"),
        Variant("w/o both pruning", "tor", {"repetitive_pruning": False, "relevance_pruning": False}, "5 pruning"),
        Variant("depth 2, widths 5/3", "tor", {"depth": 2}, "6 depth/width"),
        Variant("depth 3, widths 10/5/3", "tor", {"width_1": 10, "width_2": 5}, "6 depth/width"),
        Variant("depth 4, widths 5/3/3/3", "tor", {"depth": 4}, "6 depth/width"),
        Variant("CoR", "cor", {}, "CoR"),
        *_without("tor", "tor"),
    ],
}


def select(variants: list[Variant], names: str) -> list[Variant]:
    """The declared variants named in ``names`` (comma-separated), in the declared order, the first (the full
    method, every paired difference's baseline) always kept."""
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    known = [v.name for v in variants]
    for name in wanted:
        if name not in known:
            raise UnknownNameError("variant", name, known)
    return [v for i, v in enumerate(variants) if i == 0 or v.name in wanted]


def ablations(method: str) -> list[Variant]:
    if method not in ABLATIONS:
        raise InputError(f"no declared ablations for {method!r}; use one of {', '.join(ABLATIONS)}, or --variants")
    return list(ABLATIONS[method])


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
