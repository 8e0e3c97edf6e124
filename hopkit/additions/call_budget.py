"""Tree of Reviews' LM-call budget (knob ``budget``; an addition, 0 and off in ``paper``).

The paper's tree grows until every path is accepted, rejected or at the maximum depth, which on a small model's
noisy reviews can mean dozens of calls a question; a budget stops the search and fuses what it has
(docs/design/additions.md#budget)."""

from __future__ import annotations


class CallBudget:
    """Spent once a question's LM steps reach the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, steps: int) -> bool:
        return steps >= self.limit
