"""The papers' ablation variants per method, declared once beside the knobs (hopkit/knobs.py).

``hopkit ablate --method M`` runs ``ABLATIONS[M]`` on the same questions: the full method first (every
paired difference is against it), then each variant, a registry method with knob overrides.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopkit.errors import InputError
from hopkit.knobs import parse_knobs


@dataclass(frozen=True)
class Variant:
    name: str
    method: str
    knobs: dict[str, Any] = field(default_factory=dict)
    table: str = ""  # the paper's table the row belongs to

    def to_dict(self) -> dict:
        return {"name": self.name, "method": self.method, "knobs": dict(self.knobs), "table": self.table}


ABLATIONS: dict[str, list[Variant]] = {
    "searchain": [  # SearChain's Table 4 (effect of IR) and its interaction ablations
        Variant("SearChain", "searchain"),
        Variant("w/o IR", "searchain-noir"),
        Variant("w/o verification", "searchain-noverify"),
        Variant("w/o completion", "searchain-nocomplete"),
    ],
    "ircot": [  # IRCoT's readers (Appendix A, Table 3), its reader ablation (Table 1) and the baselines
        Variant("IRCoT (CoT reader)", "ircot", {"answer_reader": "cot"}),
        Variant("IRCoT (Direct reader)", "ircot", {"answer_reader": "direct"}, "readers"),
        Variant("IRCoT w/o reader", "ircot-noreader", {}, "reader ablation"),
        Variant("OneR", "oner", {}, "baselines"),
        Variant("NoR", "nor", {}, "baselines"),
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
        Variant("w/o checked accept", "tor", {"check_accept": False}, "additions"),
        Variant("w/o checked reject", "tor", {"check_reject": False}, "additions"),
        Variant("CoR", "cor", {}, "CoR"),
    ],
}


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
            return [Variant(str(i["name"]), str(i.get("method", method)), dict(i.get("knobs", {}))) for i in items]
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
