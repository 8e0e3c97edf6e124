"""IRCoT as the registry knows it: its three readers, and its paper's ablations (the readers of Appendix A, the
reader ablation of Table 1, the baselines) with one variant per hopkit addition."""

from __future__ import annotations

from typing import Any

from hopkit.data.examples import Dataset
from hopkit.programs.ircot.program import IRCoT
from hopkit.programs.ircot.views import VIEWS
from hopkit.programs.method import Method
from hopkit.retrieval.protocol import Retriever
from hopkit.variants import Variant, without_additions


def _ircot(retriever: Retriever, train: Dataset | None, **knobs: Any) -> IRCoT:
    return IRCoT(retriever, train=train, **knobs)


METHODS = [
    Method("ircot", "IRCoT: interleaved retrieval and reasoning, then a CoT reader", "ircot", True,
           lambda r, rd, t, **kw: _ircot(r, t, **kw), uses_demos=True, views=VIEWS),
    Method("ircot-direct", "IRCoT with a direct reader", "ircot", True,
           lambda r, rd, t, **kw: _ircot(r, t, **{"answer_reader": "direct", **kw}), uses_demos=True,
           views=VIEWS),
    Method("ircot-noreader", "IRCoT without a separate reader (answer from the chain)", "ircot", True,
           lambda r, rd, t, **kw: _ircot(r, t, **{"answer_reader": "none", **kw}), uses_demos=True,
           views=VIEWS),
]

ABLATIONS = {
    "ircot": [  # IRCoT's readers (Appendix A, Table 3), its reader ablation (Table 1) and the baselines
        Variant("IRCoT (CoT reader)", "ircot", {"answer_reader": "cot"}),
        Variant("IRCoT (Direct reader)", "ircot", {"answer_reader": "direct"}, "readers"),
        Variant("IRCoT w/o reader", "ircot-noreader", {}, "reader ablation"),
        Variant("OneR", "oner", {}, "baselines"),
        Variant("NoR", "nor", {}, "baselines"),
        *without_additions("ircot", "ircot"),
    ],
}
