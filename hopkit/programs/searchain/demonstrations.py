"""In-context demonstrations of Chain-of-Query from a training split, in the project's own words.

Three demonstrations show the situations the planner meets: first rounds where it answers what it
knows and marks the queries it cannot answer as unsolved, and a later round where a reference
completed a query and the new chain starts at that query, now answered, and goes on to the final
answer (the paper's new branch rooted at the node).

Examples with hop queries (the bundled benchmark, MuSiQue's decompositions, 2Wiki's evidences): a three-hop
(else a second two-hop) and a two-hop first round, and the first one's later round. Examples with a chain of thought only (IRCoT's demonstration
files, in-domain for real data): a comparison's (or, with none, another question's) and a bridge
question's first rounds, and a later round of a two-fact question whose reference gave the answer;
their queries are written by the LM from the facts (chain_facts.py), so building them needs the LM
configured.
"""

from __future__ import annotations

from collections.abc import Sequence

import dspy

from hopkit.data.corpus import Corpus
from hopkit.errors import InputError
from hopkit.text.question_form import OPEN, question_form
from hopkit.programs.searchain import feedback
from hopkit.programs.searchain.chain_facts import fact_nodes, facts_of, query_writer
from hopkit.programs.searchain.chain_text import render_chain
from hopkit.signatures.searchain import QueryNode


def build_chain_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int = 80,
                      write_query: dspy.Predict | None = None, extra_demo: bool = True) -> list[dspy.Example]:
    """The three demonstrations; without ``extra_demo`` (knob ``extra_plan_demo``) the paper's two: the first of the
    first rounds and the later round."""
    if not any(getattr(ex, "hop_queries", None) for ex in train):
        demos = _fact_demos(train, corpus, max_words, write_query or query_writer())
    else:
        demos = _hop_demos(train, corpus, max_words)
    if extra_demo or len(demos) < 3:
        return demos
    later = [demo for demo in demos if demo.feedback]
    return [demos[0], *later[-1:]] if later else demos[:2]


def _hop_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int) -> list[dspy.Example]:
    usable = [ex for ex in train if getattr(ex, "hop_queries", None) and getattr(ex, "chain", None)
              and len(ex.hop_queries) == len(ex.chain) - 1 and all(pid in corpus for pid in ex.gold_pids)]
    bridge = next((ex for ex in usable if len(ex.hop_queries) == 2 and len(ex.gold_pids) == 2), None)
    # opened, not solved: a question of three hops or more, else (a dataset of two-hop questions) another two-hop one
    solved = next((ex for ex in usable if len(ex.hop_queries) >= 3 and len(ex.gold_pids) >= 3), None) or next(
        (ex for ex in usable if ex is not bridge and len(ex.hop_queries) == 2 and len(ex.gold_pids) >= 2), None)
    if solved is None or bridge is None:
        raise InputError("SearChain demonstrations need two training examples with hop queries and a reasoning "
                         "chain, one of them two-hop (e.g. bundled:train, MuSiQue's or 2Wiki's train split)")
    three = _nodes(solved)  # first round: answers the first query, marks the ones it cannot answer
    opening = three[:1] + [QueryNode(query=n.query, answer=None, unsolved=True) for n in three[1:]]
    demos = [dspy.Example(question=solved.question, feedback=[], chain=opening,
                          final_answer="").with_inputs("question", "feedback")]
    two = _nodes(bridge)  # first round of a two-hop question
    demos.append(dspy.Example(question=bridge.question, feedback=[],
                              chain=[two[0], QueryNode(query=two[1].query, answer=None, unsolved=True)],
                              final_answer="").with_inputs("question", "feedback"))
    # a later round: the reference completed query 2; the new chain starts there and runs to the answer
    # the entity hop 2 leads to: the next gold paragraph's subject, or for a two-hop question its answer
    found = corpus[solved.gold_pids[2]].title if len(solved.hop_queries) >= 3 else solved.answers[0]
    told = feedback.completion(solved.question, three[1].query, found, corpus[solved.gold_pids[1]], max_words)
    demos.append(dspy.Example(question=solved.question,
                              feedback=[feedback.previous_chain(1, render_chain(opening)), told],
                              chain=three[1:], final_answer=solved.answers[0]).with_inputs("question", "feedback"))
    return demos


def _fact_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int,
                write_query: dspy.Predict) -> list[dspy.Example]:
    bridge = _first(train, lambda ex: question_form(ex.question) == OPEN and len(facts_of(ex)) == 2 and ex.answers)
    # the first round of a comparison; a dataset with none (MuSiQue) shows another multi-fact question's
    comparison = _first(train, lambda ex: question_form(ex.question) != OPEN and len(facts_of(ex)) >= 2) or _first(
        train, lambda ex: ex is not bridge and len(facts_of(ex)) >= 2)
    if comparison is None or bridge is None:
        raise InputError("SearChain demonstrations from chains of thought need a two-fact question with answers and "
                         "a second question of two facts or more among the examples (e.g. IRCoT's demonstration "
                         "files)")
    demos = []
    for example in (comparison, bridge):
        nodes = fact_nodes(example, corpus, write_query)
        if not nodes:
            raise InputError(f"could not write queries for the facts of {example.question!r}")
        opening = [nodes[0].node] + [QueryNode(query=f.node.query, answer=None, unsolved=True) for f in nodes[1:]]
        demos.append(dspy.Example(question=example.question, feedback=[], chain=opening,
                                  final_answer="").with_inputs("question", "feedback"))
        if example is bridge and nodes[1].paragraph is not None:  # a later round: the reference gave the answer
            told = feedback.completion(example.question, nodes[1].node.query, example.answers[0], nodes[1].paragraph,
                                       max_words)
            demos.append(dspy.Example(question=example.question,
                                      feedback=[feedback.previous_chain(1, render_chain(opening)), told],
                                      chain=[nodes[1].node], final_answer=example.answers[0]
                                      ).with_inputs("question", "feedback"))
    return demos


def _first(train: Sequence[dspy.Example], wanted) -> dspy.Example | None:
    return next((ex for ex in train if wanted(ex)), None)


def _nodes(example: dspy.Example) -> list[QueryNode]:
    return [QueryNode(query=q, answer=sentence, unsolved=False) for q, sentence in zip(example.hop_queries, example.chain)]
