"""SearChain as the registry knows it: with IR, and its paper's ablations of IR, verification and completion
(Table 4), with one variant per hopkit addition."""

from __future__ import annotations

from typing import Any

from hopkit.data.examples import Dataset
from hopkit.programs.method import Method
from hopkit.programs.searchain.program import SearChain
from hopkit.programs.searchain.views import VIEWS
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever
from hopkit.variants import Variant, without_additions


def _searchain(retriever: Retriever | None, reader: Reader | None, train: Dataset | None, **knobs: Any) -> SearChain:
    return SearChain(retriever, reader, train=train, **knobs)


METHODS = [
    Method("searchain", "SearChain: Chain-of-Query verified and completed by IR, traced final content",
           "searchain", True, lambda r, rd, t, **kw: _searchain(r, rd, t, **kw), needs_reader=True,
           uses_demos=True, views=VIEWS),
    Method("searchain-noir", "SearChain without IR: one Chain-of-Query, its own answer", "searchain", False,
           lambda r, rd, t, **kw: _searchain(None, None, t, use_ir=False, **kw), uses_demos=True,
           views=VIEWS),
    Method("searchain-noverify", "SearChain without verification (completion only)", "searchain", True,
           lambda r, rd, t, **kw: _searchain(r, rd, t, verify=False, **kw), needs_reader=True, uses_demos=True,
           views=VIEWS),
    Method("searchain-nocomplete", "SearChain without completion (verification only)", "searchain", True,
           lambda r, rd, t, **kw: _searchain(r, rd, t, complete=False, **kw), needs_reader=True, uses_demos=True,
           views=VIEWS),
]

ABLATIONS = {
    "searchain": [  # SearChain's Table 4 (effect of IR) and its interaction ablations
        Variant("SearChain", "searchain"),
        Variant("w/o IR", "searchain-noir"),
        Variant("w/o verification", "searchain-noverify"),
        Variant("w/o completion", "searchain-nocomplete"),
        *without_additions("searchain", "searchain"),
    ],
}
