"""IRCoT's in-context demonstrations, built from a training split in the project's own words.

Each demonstration shows the question's gold paragraphs mixed with M randomly sampled distractors
(the paper's M in {1, 2, 3}) and a complete reasoning chain. Demonstrations are packed in order
until a word budget for the whole prompt's demonstrations is spent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import dspy

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.errors import InputError


@dataclass(frozen=True)
class DemoSet:
    """Demonstrations for the reasoner and for both reader modes, from the same examples."""

    reason: list[dspy.Example]
    cot_reader: list[dspy.Example]
    direct_reader: list[dspy.Example]


def demo_paragraphs(example: dspy.Example, corpus: Corpus, m_distractors: int, rng: random.Random,
                    max_words: int) -> list[str]:
    gold = [corpus[pid] for pid in example.gold_pids if pid in corpus]
    pool_size = len(corpus)
    distractors: list[Passage] = []
    while len(distractors) < m_distractors and pool_size > len(gold) + len(distractors):
        candidate = corpus.at(rng.randrange(pool_size))
        if candidate.pid not in example.gold_pids and candidate not in distractors:
            distractors.append(candidate)
    mixed = gold + distractors
    rng.shuffle(mixed)
    return [p.as_context(max_words) for p in mixed]


def build_demos(train: Sequence[dspy.Example], corpus: Corpus, m_distractors: int = 2, budget_words: int = 1200,
                max_words: int = 80, seed: int = 0) -> DemoSet:
    """Demonstrations from examples that carry a ``chain`` (list of sentences ending with the answer)."""
    usable = [ex for ex in train if getattr(ex, "chain", None)]
    if not usable:
        raise InputError("IRCoT demonstrations need training examples with a reasoning chain (e.g. bundled:train)")
    rng = random.Random(seed)
    rng.shuffle(usable)
    reason, cot, direct = [], [], []
    spent = 0
    for example in usable:
        context = demo_paragraphs(example, corpus, m_distractors, rng, max_words)
        chain = list(example.chain)
        words = sum(len(c.split()) for c in context) + len(" ".join(chain).split()) + len(example.question.split())
        if spent + words > budget_words and reason:
            break
        spent += words
        cut = rng.randrange(len(chain))  # show the reasoner both a fresh start and a continuation
        reason.append(dspy.Example(context=context, question=example.question,
                                   reasoning_so_far=" ".join(chain[:cut]), next_sentence=chain[cut]))
        cot.append(dspy.Example(context=context, question=example.question, reasoning_chain=" ".join(chain)))
        direct.append(dspy.Example(context=context, question=example.question, answer=example.answers[0]))
    return DemoSet(reason, cot, direct)
