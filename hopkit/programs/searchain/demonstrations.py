"""In-context demonstrations of Chain-of-Query from a training split, in the project's own words.

The demonstrations show the situations the planner meets: first rounds where it answers what it knows and marks
the queries it cannot answer as unsolved, and later rounds where a reference completed a query and the new chain
starts at that query, now answered, and goes on to the final answer (the paper's new branch rooted at the node).
The paper shows two for most tasks and four for fact checking (its Table 8: knob ``plan_shots``); they come in turn,
a first round then a later round, each of another question, and of the task's own kind (a claim for fact checking,
hopkit/programs/registry.py). hopkit's ``extra_plan_demo`` shows the first question's first and later rounds with a
second question's first round between.

Examples with hop queries (the bundled benchmark, MuSiQue's decompositions, 2Wiki's evidences) open with a three-hop
question (else a two-hop one). Examples with a chain of thought only (IRCoT's demonstration files, in-domain for
real data) open with a comparison (or, with none, another question) and finish a bridge question whose reference
gave the answer; their queries are written by the LM from the facts (chain_facts.py), so building them needs the LM
configured.
"""

from __future__ import annotations

from collections.abc import Sequence

import dspy

from hopkit.data.corpus import Corpus
from hopkit.errors import InputError
from hopkit.programs.searchain import feedback
from hopkit.programs.searchain.chain_facts import fact_nodes, facts_of, query_writer
from hopkit.programs.searchain.chain_text import render_chain
from hopkit.signatures.searchain import QueryNode
from hopkit.text.question_form import OPEN, question_form


def build_chain_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int = 80,
                      write_query: dspy.Predict | None = None, extra_demo: bool = True,
                      shots: int = 2) -> list[dspy.Example]:
    """``shots`` demonstrations (the paper's count for the task, knob ``plan_shots``), first rounds and later rounds in
    turn, each of another question; ``extra_demo`` (knob ``extra_plan_demo``) adds a second question's first round
    beside the first question's, whose later round it then shows."""
    if not any(getattr(ex, "hop_queries", None) for ex in train):
        return _fact_demos(train, corpus, max_words, write_query or query_writer(), extra_demo, shots)
    return _hop_demos(train, corpus, max_words, extra_demo, shots)


def _hop_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int, extra_demo: bool,
               shots: int) -> list[dspy.Example]:
    usable = [ex for ex in train if getattr(ex, "hop_queries", None) and getattr(ex, "chain", None)
              and len(ex.hop_queries) == len(ex.chain) - 1 and all(pid in corpus for pid in ex.gold_pids)]
    bridge = next((ex for ex in usable if len(ex.hop_queries) == 2 and len(ex.gold_pids) == 2), None)
    # opened, not solved: a question of three hops or more, else (a dataset of two-hop questions) another two-hop one
    solved = next((ex for ex in usable if len(ex.hop_queries) >= 3 and len(ex.gold_pids) >= 3), None) or next(
        (ex for ex in usable if ex is not bridge and len(ex.hop_queries) == 2 and len(ex.gold_pids) >= 2), None)
    if solved is None or bridge is None:
        raise InputError("SearChain demonstrations need two training examples with hop queries and a reasoning "
                         "chain, one of them two-hop (e.g. bundled:train, MuSiQue's or 2Wiki's train split)")
    others = [ex for ex in usable if ex is not solved and ex is not bridge and len(ex.gold_pids) >= 2]
    if extra_demo:  # the first question opened and finished, a second one opened between
        demos = [_opening(solved), _opening(bridge), _later_round(solved, corpus, max_words)]
        return demos + _in_turn(others, shots - 2, corpus, max_words)
    return _in_turn([solved, bridge, *others], shots, corpus, max_words)


def _in_turn(examples: list[dspy.Example], shots: int, corpus: Corpus, max_words: int) -> list[dspy.Example]:
    """A first round, then a later round, and so on, each of the next question."""
    return [_opening(ex) if i % 2 == 0 else _later_round(ex, corpus, max_words)
            for i, ex in enumerate(examples[:max(shots, 0)])]


def _opening(example: dspy.Example) -> dspy.Example:
    """A first round: the first query answered, the ones the planner cannot answer yet marked unsolved."""
    nodes = _nodes(example)
    chain = nodes[:1] + [QueryNode(query=n.query, answer=None, unsolved=True) for n in nodes[1:]]
    return dspy.Example(question=example.question, feedback=[], chain=chain, final_answer="").with_inputs(
        "question", "feedback")


def _later_round(example: dspy.Example, corpus: Corpus, max_words: int) -> dspy.Example:
    """A later round: the reference completed query 2, and the new chain starts there and runs to the answer."""
    nodes = _nodes(example)
    hop = corpus[example.gold_pids[1]]
    # the entity hop 2 leads to: the next gold paragraph's subject; for a two-hop question its answer where the
    # paragraph holds it, else (a claim's label) what the hop's own sentence says
    found: str
    if len(example.hop_queries) >= 3:
        found = corpus[example.gold_pids[2]].title
    else:
        found = example.answers[0] if example.answers[0].lower() in hop.text.lower() else nodes[1].answer_text
    told = feedback.completion(example.question, nodes[1].query, found, hop, max_words)
    opening = _opening(example).chain
    return dspy.Example(question=example.question, feedback=[feedback.previous_chain(1, render_chain(opening)), told],
                        chain=nodes[1:], final_answer=example.answers[0]).with_inputs("question", "feedback")


def _fact_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int, write_query: dspy.Predict,
                extra_demo: bool = True, shots: int = 2) -> list[dspy.Example]:
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
    if not extra_demo and len(demos) >= 3:  # the paper's two: the comparison opened, the bridge finished
        demos = [demos[0], demos[-1]]
    more = [ex for ex in train if ex is not comparison and ex is not bridge and len(facts_of(ex)) >= 2 and ex.answers]
    for i, example in enumerate(more[:max(shots - 2, 0)]):  # beyond two (fact checking shows four): in turn
        nodes = fact_nodes(example, corpus, write_query)
        if not nodes:
            continue
        opening = [nodes[0].node] + [QueryNode(query=f.node.query, answer=None, unsolved=True) for f in nodes[1:]]
        if i % 2 == 0 or nodes[1].paragraph is None:
            demos.append(dspy.Example(question=example.question, feedback=[], chain=opening,
                                      final_answer="").with_inputs("question", "feedback"))
            continue
        told = feedback.completion(example.question, nodes[1].node.query, nodes[1].node.answer or "",
                                   nodes[1].paragraph, max_words)
        demos.append(dspy.Example(question=example.question,
                                  feedback=[feedback.previous_chain(1, render_chain(opening)), told],
                                  chain=[n.node for n in nodes[1:]], final_answer=example.answers[0]
                                  ).with_inputs("question", "feedback"))
    return demos


def _first(train: Sequence[dspy.Example], wanted) -> dspy.Example | None:
    return next((ex for ex in train if wanted(ex)), None)


def _nodes(example: dspy.Example) -> list[QueryNode]:
    return [QueryNode(query=q, answer=sentence, unsolved=False)
            for q, sentence in zip(example.hop_queries, example.chain)]
