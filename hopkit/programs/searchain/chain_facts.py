"""A training example as Chain-of-Query nodes: its hop queries with its chain's facts.

Examples that carry hop queries (the bundled benchmark) use them, each hop's gold paragraph in
order. Examples that carry only a chain of thought (IRCoT's demonstration files) get one query per
fact, written by the LM (``QueryForFact``), and each fact's paragraph is the gold paragraph whose
title the fact names.
"""

from __future__ import annotations

from dataclasses import dataclass

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.programs.ircot.sentences import says_answer
from hopkit.signatures.fact_query import QueryForFact
from hopkit.signatures.searchain import QueryNode
from hopkit.text.titles import title_named


@dataclass(frozen=True)
class FactNode:
    node: QueryNode
    paragraph: Passage | None  # the fact's supporting paragraph, where it is known

    @property
    def supporting(self) -> Passage:
        """The supporting paragraph of a fact known to have one (the callers keep only such facts)."""
        if self.paragraph is None:
            raise ValueError(f"the fact {self.node.query!r} has no known paragraph")
        return self.paragraph


def facts_of(example: dspy.Example) -> list[str]:
    """The chain's sentences before its answer step."""
    return [s for s in (getattr(example, "chain", None) or []) if not says_answer(s)]


def fact_nodes(example: dspy.Example, corpus: Corpus, write_query: dspy.Predict | None,
               limit: int | None = None) -> list[FactNode] | None:
    """The example's nodes (its first ``limit`` facts), or None when they cannot be built (no facts, or no
    way to write queries). With hop queries, facts past the last hop (a comparison's "Thus ...") are left out."""
    facts = facts_of(example)
    hops = list(getattr(example, "hop_queries", None) or [])
    if hops and len(facts) > len(hops):
        facts = facts[: len(hops)]
    facts, hops = (facts[:limit], hops[:limit]) if limit else (facts, hops)
    if not facts:
        return None
    gold = [corpus[pid] for pid in example.gold_pids if pid in corpus]
    if len(hops) == len(facts):  # hop i's gold paragraph is the i-th gold pid
        papers = gold[: len(facts)] if len(gold) >= len(facts) else [None] * len(facts)
        return [FactNode(QueryNode(query=q, answer=f, unsolved=False), p) for q, f, p in zip(hops, facts, papers)]
    if write_query is None:
        return None
    nodes = []
    for fact in facts:
        query = _query(write_query, example.question, fact)
        if not query:
            return None
        nodes.append(FactNode(QueryNode(query=query, answer=fact, unsolved=False), _named_paragraph(fact, gold)))
    return nodes


def _query(write_query: dspy.Predict, question: str, fact: str) -> str:
    try:
        query = (write_query(question=question, fact=fact).query or "").strip()
    except AdapterParseError:
        return ""
    return query if query.endswith("?") else (query + "?" if query else "")


def _named_paragraph(fact: str, gold: list[Passage]) -> Passage | None:
    return next((paragraph for paragraph in gold if title_named(paragraph.title, fact)), None)


def query_writer() -> dspy.Predict:
    return dspy.Predict(QueryForFact)
