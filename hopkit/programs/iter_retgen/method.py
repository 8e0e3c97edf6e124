"""ITER-RETGEN as the registry knows it, and its ablations: fewer turns (its paper's iteration count), and one
variant per hopkit addition."""

from __future__ import annotations

from hopkit.programs.iter_retgen.program import IterRetGen
from hopkit.programs.iter_retgen.views import VIEWS
from hopkit.programs.method import Method
from hopkit.variants import Variant, without_additions

METHODS = [
    Method("iter-retgen", "ITER-RETGEN: retrieve with the question and the last response, regenerate, for T turns",
           "iter-retgen", True, lambda r, rd, t, **kw: IterRetGen(r, train=t, **kw), uses_demos=True, views=VIEWS),
]

ABLATIONS = {
    "iter-retgen": [
        Variant("ITER-RETGEN", "iter-retgen"),
        Variant("1 turn (OneR with a CoT reader)", "iter-retgen", {"max_turns": 1}, "turns"),
        Variant("2 turns", "iter-retgen", {"max_turns": 2}, "turns"),
        *without_additions("iter-retgen", "iter-retgen"),
    ],
}
