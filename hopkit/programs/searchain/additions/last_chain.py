"""SearChain's final answer from the last chain (knob ``answer_from=last_chain``; an addition, off in ``paper``).

The paper traces over the whole reasoning path R, which holds the guesses of chains that a later round
replanned; here the final content and answer come from the last chain with IR's answers put in, and the chain's
own answer stands when that chain passed and IR filled none of its nodes from earlier readings
(docs/design/additions.md#answer_from)."""

from __future__ import annotations

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.programs.searchain.answer_chain import FinalAnswer, answer_pairs, last_chain
from hopkit.programs.searchain.tracing import references_in
from hopkit.programs.searchain.tree import FILLED, ReasoningTree, TreeNode


def final_from_last_chain(trace_answer: dspy.Predict, question: str, tree: ReasoningTree, path: list[TreeNode],
                          use_ir: bool, finished: bool) -> FinalAnswer:
    """The last chain with IR's answers put in. When that chain passed IR, its own answer stands and tracing writes
    the referenced content; otherwise tracing over its verified pairs gives the answer."""
    nodes = last_chain(tree)
    chain_answer = tree.branches[-1].final_answer if tree.branches else ""
    if not nodes:
        return FinalAnswer(chain_answer, "", [], [], "chain", "")
    if not use_ir:
        own = chain_answer or next((n.lm_answer for n in reversed(nodes) if n.lm_answer), "")
        return FinalAnswer(own, "", [], [], "chain", "")
    pairs = answer_pairs(tree, nodes)
    lines = [f"[{n}] {p.node.query} -> {p.answer or 'unknown'}" for n, p in enumerate(pairs, start=1)]
    try:
        out = trace_answer(question=question, verified_pairs=lines)
        content, traced = (out.final_content or "").strip(), (out.answer or "").strip()
    except AdapterParseError as error:
        tree.trace_parse_failures += 1
        content, traced = str(error.lm_response or "").strip(), ""
    references = references_in(content, len(pairs))
    cited = [p.pid for p in pairs]
    if finished and chain_answer and not any(n.action == FILLED for n in nodes):
        return FinalAnswer(chain_answer, content, references, cited, "chain", traced)  # written knowing every fact
    if traced:
        return FinalAnswer(traced, content, references, cited, "traced", traced)
    return FinalAnswer(chain_answer or pairs[-1].answer, content, references, cited,
                       "chain" if chain_answer else "last-node", traced)
