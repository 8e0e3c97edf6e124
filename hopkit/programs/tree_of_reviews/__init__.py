"""Tree of Reviews (Li et al., 2024): a paragraph tree with review, pruning, expansion and evidence fusion; CoR."""

from hopkit.programs.tree_of_reviews.program import TreeOfReviews

__all__ = ["TreeOfReviews"]
