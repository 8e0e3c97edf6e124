"""Tracing (Algorithm 1's last step): the final content written from the reasoning path R's query-answer pairs,
with a reference mark for each pair it uses, and the final answer (``answer_from=path``, the paper's rule; hopkit's
``last_chain`` is in programs/searchain/additions/last_chain.py)."""

from __future__ import annotations

import re

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.programs.searchain.answer_chain import FinalAnswer
from hopkit.programs.searchain.tree import COMPLETED, CORRECTED, FILLED, ReasoningTree, TreeNode

_REFERENCE = re.compile(r"\[(\d+)\]")


def references_in(content: str, pairs: int) -> list[int]:
    """The pair numbers the content marks ([n]), each once, in order."""
    return sorted({int(m) for m in _REFERENCE.findall(content) if 1 <= int(m) <= pairs})


def final_from_path(trace_answer: dspy.Predict, question: str, tree: ReasoningTree, path: list[TreeNode],
                    use_ir: bool, finished: bool) -> FinalAnswer:
    """The final content from the path's pairs; the answer the tracing call gives, else the chain's, else the last
    pair's. With nothing verified (the variant without IR) the chain's own answer."""
    last = tree.branches[-1] if tree.branches else None
    chain_answer = last.final_answer if last else ""
    if not path:
        nodes = [tree.nodes[i] for i in last.node_ids] if last else []
        own = chain_answer or next((n.lm_answer for n in reversed(nodes) if n.lm_answer), "")
        return FinalAnswer(own, "", [], [], "traced", own)
    pairs = [f"[{n}] {node.query} -> {path_answer(node) or 'unknown'}" for n, node in enumerate(path, start=1)]
    try:
        out = trace_answer(question=question, verified_pairs=pairs)
        content, answer = (out.final_content or "").strip(), (out.answer or "").strip()
    except AdapterParseError as error:  # counted in the trace; the chain's answer stands in
        tree.trace_parse_failures += 1
        content, answer = str(error.lm_response or "").strip(), ""
    answer = answer or chain_answer or path_answer(path[-1])
    return FinalAnswer(answer, content, references_in(content, len(path)), [node.pid for node in path], "traced",
                       answer)


def path_answer(node: TreeNode) -> str:
    """A corrected or completed node carries the reader's answer; a passed one the LM's (Algorithm 1's R)."""
    return (node.reader_answer or "") if node.action in (CORRECTED, COMPLETED, FILLED) else node.lm_answer
