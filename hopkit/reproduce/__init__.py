"""The papers' protocol: tune each method on the paper's grid on a tune split, score the chosen setting once on a
test split, and lay the results out as the papers' tables, beside the papers' own numbers."""

from hopkit.reproduce.grids import paper_grid
from hopkit.reproduce.paper_numbers import PAPER_NUMBERS, paper_number
from hopkit.reproduce.protocol import ReproduceRequest, reproduce

__all__ = ["PAPER_NUMBERS", "ReproduceRequest", "paper_grid", "paper_number", "reproduce"]
