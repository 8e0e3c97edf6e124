"""Worked examples for the step-by-step baselines (Self-Ask, ReAct, ITER-RETGEN): train questions whose chain states
one fact per hop query and whose gold paragraphs are in the corpus, each hop with its query, its fact and the
paragraph that holds it. ToR's section 4.3 shows these baselines 3 examples drawn from a train split; hopkit draws
them with a fixed seed, one question type after another, so that one template cannot take every shot."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hopkit.data.examples import Dataset
from hopkit.data.passage import Passage


@dataclass(frozen=True)
class Hop:
    query: str  # the follow-up question, or the search query
    fact: str  # the sentence of the chain that answers it
    paragraph: Passage  # the gold paragraph that holds the fact


@dataclass(frozen=True)
class WorkedExample:
    question: str
    hops: tuple[Hop, ...]
    answer: str


def worked_examples(train: Dataset | None, shots: int, seed: int = 0) -> list[WorkedExample]:
    """Up to ``shots`` examples of ``train`` (none when it has no hop queries and chains)."""
    if train is None or train.corpus is None or shots < 1:
        return []
    corpus = train.corpus
    by_type: dict[str, list[WorkedExample]] = {}
    for example in train.examples:
        queries = list(getattr(example, "hop_queries", None) or [])
        facts = [s for s in (getattr(example, "chain", None) or []) if "answer is" not in s.lower()]
        pids = list(getattr(example, "gold_pids", None) or [])
        if not queries or len(queries) != len(facts) or len(pids) != len(queries) or not example.answers:
            continue
        if any(pid not in corpus for pid in pids):
            continue
        hops = tuple(Hop(q, f, corpus[pid]) for q, f, pid in zip(queries, facts, pids))
        kind = str(getattr(example, "type", None) or len(hops))
        by_type.setdefault(kind, []).append(WorkedExample(example.question, hops, example.answers[0]))
    rng = random.Random(seed)
    for group in by_type.values():
        rng.shuffle(group)
    kinds = sorted(by_type)
    picked: list[WorkedExample] = []
    for turn in range(max((len(g) for g in by_type.values()), default=0)):
        for kind in kinds:
            if turn < len(by_type[kind]) and len(picked) < shots:
                picked.append(by_type[kind][turn])
    return picked
