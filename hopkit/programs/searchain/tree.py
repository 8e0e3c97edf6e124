"""The Tree-of-Reasoning: every round's Chain-of-Query is a branch, hung from the node IR identified.

Round 1's chain hangs from the root (the question). When IR gives feedback on a node, the next
round's chain is attached at that node (node-identify depth-first search): the branch starts
where the reasoning was corrected or completed, not back at the root.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from hopkit.signatures.searchain import QueryNode

ROOT = "root"

# What IR did with a node.
PASS = "pass"                    # the LM's answer stands; the document is its support
CORRECTED = "verified-corrected"  # a confident reader disagreed: feedback with its answer
COMPLETED = "completed"          # the LM marked it unsolved: feedback with the reader's answer
DUPLICATE = "skipped-duplicate"  # the query was processed in an earlier round
UNSOLVED_KEPT = "unsolved-kept"  # unsolved, but completion is switched off
FILLED = "completed-from-record"  # an unsolved repeat of a query IR answered before gets that answer (rejudge)
UNANSWERED = "unsolved-unanswered"  # unsolved, and the reader found no answer: IR goes on (knob no_answer)
NOT_REACHED = "not-reached"      # after the node that ended the round
NO_IR = "no-ir"                  # the variant without IR never checks a node


@dataclass
class TreeNode:
    id: str
    round: int
    index: int
    parent: str
    query: str
    lm_answer: str
    unsolved: bool
    action: str = NOT_REACHED
    reader_answer: str | None = None
    confidence: float | None = None
    pid: str | None = None
    duplicate_of: str | None = None
    rejudged: bool = False  # a repeated query judged again against its recorded reading

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Branch:
    round: int
    attached_to: str
    node_ids: list[str]
    final_answer: str
    parse: str  # "typed", "fallback" (read by the tolerant parser) or "unreadable"


@dataclass
class ReasoningTree:
    question: str
    nodes: dict[str, TreeNode] = field(default_factory=dict)
    branches: list[Branch] = field(default_factory=list)
    trace_parse_failures: int = 0
    reader_parse_failures: int = 0

    def add_branch(self, round_: int, chain: list[QueryNode], attached_to: str, final_answer: str,
                   parse: str) -> list[TreeNode]:
        if attached_to != ROOT and attached_to not in self.nodes:
            raise KeyError(f"no node {attached_to!r} to attach round {round_} to")
        parent, created = attached_to, []
        for index, query_node in enumerate(chain, start=1):
            node = TreeNode(id=f"r{round_}.{index}", round=round_, index=index, parent=parent, query=query_node.query,
                            lm_answer=query_node.answer_text,
                            unsolved=query_node.unsolved or not query_node.answer_text)
            self.nodes[node.id] = node
            created.append(node)
            parent = node.id
        self.branches.append(Branch(round_, attached_to, [n.id for n in created], final_answer, parse))
        return created

    def children(self, node_id: str) -> list[TreeNode]:
        return [n for n in self.nodes.values() if n.parent == node_id]

    def to_dict(self) -> dict:
        return {"question": self.question, "nodes": [n.to_dict() for n in self.nodes.values()],
                "branches": [asdict(b) for b in self.branches], "trace_parse_failures": self.trace_parse_failures,
                "reader_parse_failures": self.reader_parse_failures}
