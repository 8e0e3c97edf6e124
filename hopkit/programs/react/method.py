"""ReAct as the registry knows it, and its ablations (one variant per hopkit addition)."""

from __future__ import annotations

from hopkit.programs.method import Method
from hopkit.programs.react.program import ReAct
from hopkit.programs.react.views import VIEWS
from hopkit.variants import Variant, without_additions

METHODS = [
    Method("react", "ReAct: thought, search and observation steps, then finish", "react", True,
           lambda r, rd, t, **kw: ReAct(r, train=t, **kw), uses_demos=True, views=VIEWS),
]

ABLATIONS = {
    "react": [
        Variant("ReAct", "react"),
        Variant("1 search", "react", {"max_turns": 1}, "turns"),
        *without_additions("react", "react"),
    ],
}
