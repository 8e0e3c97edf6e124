"""SearChain's first-chain retry (knob ``decompose_retry``; an addition, off in ``paper``).

A small planner sometimes answers the first round with one node that is the question again, which gives IR
nothing to verify hop by hop; asking once more for a decomposition turns it into a chain
(docs/design/additions.md#decompose_retry)."""

from __future__ import annotations

from collections.abc import Callable

from hopkit.programs.searchain import feedback
from hopkit.programs.searchain.chain_text import Plan, render_chain
from hopkit.signatures.searchain import QueryNode
from hopkit.text.normalize import normalize_answer
from hopkit.text.similarity import rouge_l

RESTATES = 0.7  # ROUGE-L between a lone query and the question at or above which the query restates it


def restates_question(chain: list[QueryNode], question: str) -> bool:
    """A first chain of one node whose query is the question again (ROUGE-L >= RESTATES)."""
    return len(chain) == 1 and rouge_l(normalize_answer(chain[0].query), normalize_answer(question)) >= RESTATES


def decompose_again(plan: Callable[[str, list[str]], Plan], question: str, first: Plan) -> tuple[Plan, str | None]:
    """The first plan, or, when it restates the question, the planner's second try where that has nodes; with the
    chain it replaced (None: kept)."""
    chain, final_answer, _ = first
    if not restates_question(chain, question):
        return first, None
    retried = render_chain(chain, final_answer)
    again = plan(question, [feedback.previous_chain(1, retried), feedback.decompose(question)])
    return (again if again[0] else first), retried
