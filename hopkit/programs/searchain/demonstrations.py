"""In-context demonstrations of Chain-of-Query from a training split, in the project's own words.

Three demonstrations show the situations the planner meets: first rounds (a three-hop and a
two-hop question) where it answers what it knows and marks the queries it cannot answer as
unsolved, and a later round of the three-hop question, where a reference completed its second
query and the new chain starts at that query, now answered, and goes on to the final answer (the
paper's new branch rooted at the node).
"""

from __future__ import annotations

from collections.abc import Sequence

import dspy

from hopkit.data.corpus import Corpus
from hopkit.errors import InputError
from hopkit.programs.searchain import feedback
from hopkit.programs.searchain.chain_text import render_chain
from hopkit.signatures.searchain import QueryNode


def build_chain_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int = 80) -> list[dspy.Example]:
    usable = [ex for ex in train if getattr(ex, "hop_queries", None) and getattr(ex, "chain", None)
              and len(ex.hop_queries) == len(ex.chain) - 1 and all(pid in corpus for pid in ex.gold_pids)]
    solved = next((ex for ex in usable if len(ex.hop_queries) >= 3 and len(ex.gold_pids) >= 3), None)  # opened, not solved
    bridge = next((ex for ex in usable if len(ex.hop_queries) == 2 and len(ex.gold_pids) == 2), None)
    if solved is None or bridge is None:
        raise InputError("SearChain demonstrations need training examples with hop queries and a reasoning chain "
                         "(e.g. bundled:train)")
    three = _nodes(solved)  # first round: answers the first query, marks the ones it cannot answer
    opening = three[:1] + [QueryNode(query=n.query, answer=None, unsolved=True) for n in three[1:]]
    demos = [dspy.Example(question=solved.question, feedback=[], chain=opening,
                          final_answer="").with_inputs("question", "feedback")]
    two = _nodes(bridge)  # first round of a two-hop question
    demos.append(dspy.Example(question=bridge.question, feedback=[],
                              chain=[two[0], QueryNode(query=two[1].query, answer=None, unsolved=True)],
                              final_answer="").with_inputs("question", "feedback"))
    # a later round: the reference completed query 2; the new chain starts there and runs to the answer
    found = corpus[solved.gold_pids[2]].title  # the entity hop 2 leads to: the next gold paragraph's subject
    told = feedback.completion(solved.question, three[1].query, found, corpus[solved.gold_pids[1]], max_words)
    demos.append(dspy.Example(question=solved.question,
                              feedback=[feedback.previous_chain(1, render_chain(opening)), told],
                              chain=three[1:], final_answer=solved.answers[0]).with_inputs("question", "feedback"))
    return demos


def _nodes(example: dspy.Example) -> list[QueryNode]:
    return [QueryNode(query=q, answer=sentence, unsolved=False) for q, sentence in zip(example.hop_queries, example.chain)]
