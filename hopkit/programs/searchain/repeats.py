"""A query IR processed before, and the rule that decides what becomes of it.

Algorithm 1 skips it (``duplicates=skip``, here); hopkit's ``rejudge`` rule is in
programs/searchain/additions/rejudge.py. A rule returns SKIPPED (IR goes on to the next node), READ_AGAIN (IR reads the
query as if new), or the node and the feedback message that ends the round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hopkit.data.passage import Passage
from hopkit.programs.searchain.tree import DUPLICATE, TreeNode

SKIPPED, READ_AGAIN = "skipped", "read_again"
Outcome = str | tuple[TreeNode, str]  # SKIPPED, READ_AGAIN, or the node and its feedback


@dataclass(frozen=True)
class Repeat:
    question: str
    node: TreeNode  # the node that repeats a query
    earlier: TreeNode  # the node that processed it first
    documents: dict[str, Passage]  # the documents IR recorded, by pid
    path: list[TreeNode]  # the reasoning path R so far


def skip_repeat(repeat: Repeat, *_: Any) -> Outcome:
    """The paper's rule: a query processed before is skipped."""
    repeat.node.action = DUPLICATE
    return SKIPPED
