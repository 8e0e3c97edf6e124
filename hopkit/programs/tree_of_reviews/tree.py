"""The paragraph tree of Tree of Reviews and its evidence pool."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING

from hopkit.data.passage import Passage

if TYPE_CHECKING:
    from hopkit.programs.tree_of_reviews.review import Review

# What happened to a node.
REVIEWED = "reviewed"
PRUNED_REPETITIVE = "pruned-repetitive"  # its paragraph is already in the evidence pool
SKIPPED_BUDGET = "skipped-budget"         # the LM-call budget ran out before its review


@dataclass
class ReviewNode:
    id: str
    depth: int
    parent: str
    pid: str
    query: str  # the query whose retrieval produced this node
    path: list[str]  # pids from the first layer down to this node
    status: str = REVIEWED
    relevant: bool | None = None
    sufficient: bool | None = None
    action: str | None = None
    output: str = ""
    next_query: str | None = None
    parse: str | None = None
    reasoning: str = ""
    answer: str = ""
    unsupported_accept: bool = False  # accepted, but its answer is not in its paragraphs: searched on
    overruled_reject: bool = False  # rejected, but titled with an option of an either-or question: searched on
    query_source: str | None = None  # where next_query came from: review, written, mpc

    def to_dict(self) -> dict:
        return asdict(self)

    def take(self, review: Review) -> None:
        """The review's verdict on this node: each of its fields, and the action they imply."""
        for name in (f.name for f in fields(review)):
            setattr(self, name, getattr(review, name))
        self.action = review.action


@dataclass
class Evidence:
    """An accepted path and the brief analysis the review wrote for it."""

    pids: list[str]
    analysis: str
    node: str


@dataclass
class SearchState:
    """Everything one question's search accumulates."""

    question: str
    nodes: list[ReviewNode] = field(default_factory=list)
    pool: list[Evidence] = field(default_factory=list)
    passages: dict[str, Passage] = field(default_factory=dict)
    lm_steps: int = 0
    stopped_by_budget: bool = False

    def pool_pids(self) -> list[str]:
        return list(dict.fromkeys(pid for evidence in self.pool for pid in evidence.pids))

    def reviewed_pids(self) -> set[str]:
        return {n.pid for n in self.nodes if n.status == REVIEWED and n.action is not None}
