"""Tree of Reviews as the registry knows it, with CoR (one path that accumulates every paragraph), and its paper's
ablations (Tables 3-6) with one variant per hopkit addition."""

from __future__ import annotations

from typing import Any

from hopkit.data.examples import Dataset
from hopkit.programs.method import Method
from hopkit.programs.tree_of_reviews.program import TreeOfReviews
from hopkit.programs.tree_of_reviews.views import VIEWS
from hopkit.retrieval.protocol import Retriever
from hopkit.variants import Variant, without_additions


def _tor(retriever: Retriever, train: Dataset | None, **knobs: Any) -> TreeOfReviews:
    return TreeOfReviews(retriever, train=train, **knobs)


METHODS = [
    Method("tor", "Tree of Reviews: paragraph tree with review, pruning, expansion, evidence fusion", "tor", True,
           lambda r, rd, t, **kw: _tor(r, t, **kw), uses_demos=True, views=VIEWS),
    Method("cor", "Chain of Reviews: the ToR review on one path that accumulates every paragraph", "tor", True,
           lambda r, rd, t, **kw: _tor(r, t, single_path=True, **kw), uses_demos=True, views=VIEWS),
]

ABLATIONS = {
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
        *without_additions("tor", "tor"),
    ],
}
