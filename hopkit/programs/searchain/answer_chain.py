"""The last chain as the answer comes from it: each node with the answer IR verified.

A node IR corrected or completed (or filled from an earlier completion) carries the reader's answer; a
node that repeats an earlier query carries what that query's node recorded; any other node keeps the LM's
answer. Nodes of earlier rounds are not here: a round that ended in feedback was replanned, and its
unverified guesses must not reach the answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from hopkit.programs.searchain.tree import COMPLETED, CORRECTED, DUPLICATE, FILLED, ReasoningTree, TreeNode


@dataclass(frozen=True)
class FinalAnswer:
    answer: str
    content: str
    references: list[int]
    cited: list[str | None]  # the documents of the pairs the content was written from
    source: str  # chain, traced or last-node
    traced: str  # the tracing call's own short answer ("" when it gave none)


@dataclass(frozen=True)
class AnswerPair:
    node: TreeNode
    answer: str
    pid: str | None
    verified: bool  # IR checked this answer (directly or through the node it repeats)


def source_node(tree: ReasoningTree, node: TreeNode) -> TreeNode:
    """The node whose reading stands for this one: the node it repeats, if it was skipped as a duplicate."""
    if node.action == DUPLICATE and node.duplicate_of in tree.nodes:
        return tree.nodes[node.duplicate_of]
    return node


def recorded_answer(node: TreeNode) -> str:
    """What IR left standing for a processed node: the reader's answer where it corrected or completed."""
    if node.action in (CORRECTED, COMPLETED, FILLED) and node.reader_answer:
        return node.reader_answer
    return node.lm_answer


def last_chain(tree: ReasoningTree) -> list[TreeNode]:
    """The nodes of the last round whose chain could be read."""
    for branch in reversed(tree.branches):
        if branch.node_ids:
            return [tree.nodes[i] for i in branch.node_ids]
    return []


def answer_pairs(tree: ReasoningTree, nodes: list[TreeNode]) -> list[AnswerPair]:
    pairs = []
    for node in nodes:
        source = source_node(tree, node)
        pairs.append(AnswerPair(node, recorded_answer(source), source.pid, source.pid is not None))
    return pairs
