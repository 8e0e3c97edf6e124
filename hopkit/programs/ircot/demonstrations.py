"""IRCoT's in-context demonstrations, built from any dataset whose examples carry a reasoning chain.

Each demonstration shows the question's gold paragraphs mixed with M randomly sampled distractors
(the paper's M in {1, 2, 3}) and a complete reasoning chain that ends in its answer step
("So the answer is: ..."). Demonstrations are packed in order until a budget of wordpieces for all of
them is spent, or ``max_demos`` are in (the paper samples 15 of its 20 and packs as many as fit 6,000 wordpieces
for Flan-T5, 8,000 for GPT3).

The reasoner's demonstrations show the chain as a continuation: the first shows the whole chain
from an empty start (the paper's format), the others a few given sentences and the rest of the chain
after them, so the model sees both how a chain starts and how it goes on to the answer, never a lone
middle step.

An addition to the paper's random choice (``balance_openings``, on by default): examples are taken
round-robin over their questions' openings ("in which country was", "in what year was", ...), so one
question template cannot fill the budget: on templated data a random pick can show mostly one template whose
chains end a hop past what a neighbouring template asks, and the reader then answers that hop instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import dspy

from hopkit.data.corpus import Corpus
from hopkit.data.examples import Dataset
from hopkit.data.passage import Passage
from hopkit.errors import InputError
from hopkit.knobs import PARAGRAPH_WORDS
from hopkit.programs.ircot.sentences import says_answer
from hopkit.text.wordpieces import count_wordpieces


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


def complete_chain(example: dspy.Example) -> list[str]:
    """The example's chain as sentences, ending in the answer step (added from its first answer if missing)."""
    chain = example.chain
    sentences = [s.strip() for s in ([chain] if isinstance(chain, str) else chain) if s and s.strip()]
    if not sentences or not says_answer(sentences[-1]):
        sentences.append(f"So the answer is: {example.answers[0]}.")
    return sentences


OPENING_WORDS = 4  # a question's opening: its first words, lower-cased (its template, on templated data)


def question_opening(question: str) -> str:
    return " ".join(question.lower().split()[:OPENING_WORDS])


def round_robin_by_opening(examples: list[dspy.Example]) -> list[dspy.Example]:
    """The examples reordered so that each opening is taken once before any is taken again (order kept within)."""
    groups: dict[str, list[dspy.Example]] = {}
    for example in examples:
        groups.setdefault(question_opening(example.question), []).append(example)
    queues = list(groups.values())
    ordered: list[dspy.Example] = []
    for turn in range(max(len(q) for q in queues)):
        ordered.extend(q[turn] for q in queues if turn < len(q))
    return ordered


def demos_for(train: Dataset, knobs: Mapping[str, Any]) -> DemoSet:
    """The demonstrations a program with these knobs (IRCoT's, or a baseline's with IRCoT's reader) builds."""
    return build_demos(train.examples, train.own_corpus(), m_distractors=knobs["m_distractors"],
                       budget_wordpieces=knobs["demo_budget"], max_demos=knobs["max_demos"],
                       balance_openings=knobs.get("balance_openings", True),
                       max_words=knobs.get("paragraph_words", PARAGRAPH_WORDS))


def build_demos(train: Sequence[dspy.Example], corpus: Corpus, m_distractors: int = 2, budget_wordpieces: int = 6000,
                max_words: int = PARAGRAPH_WORDS, seed: int = 0, balance_openings: bool = True,
                max_demos: int = 15) -> DemoSet:
    """Demonstrations from examples that carry a ``chain`` (sentences, or one string) and gold pids."""
    usable = [ex for ex in train if getattr(ex, "chain", None) and getattr(ex, "answers", None)]
    if not usable:
        raise InputError("IRCoT demonstrations need examples with a reasoning chain: an IRCoT demonstration file "
                         "(--demos-from ircot-demos:FILE), bundled:train, or --demos-from none for zero-shot")
    rng = random.Random(seed)
    ranked: dict[int, list[dspy.Example]] = {}  # a joined source's datasets in order (a task's own split first)
    for example in usable:
        ranked.setdefault(getattr(example, "demo_rank", None) or 0, []).append(example)
    usable = []
    for rank in sorted(ranked):
        group = ranked[rank]
        rng.shuffle(group)
        usable += round_robin_by_opening(group) if balance_openings else group
    reason: list[dspy.Example] = []
    cot: list[dspy.Example] = []
    direct: list[dspy.Example] = []
    spent = 0
    for example in usable:
        if len(reason) >= max_demos:
            break
        context = demo_paragraphs(example, corpus, m_distractors, rng, max_words)
        chain = complete_chain(example)
        pieces = count_wordpieces("\n".join([*context, example.question, " ".join(chain)]))
        if spent + pieces > budget_wordpieces and reason:
            break
        spent += pieces
        given = 0 if not reason else rng.randrange(len(chain))  # the first demonstration starts from nothing
        reason.append(dspy.Example(context=context, question=example.question,
                                   reasoning_so_far=" ".join(chain[:given]), continuation=" ".join(chain[given:])))
        cot.append(dspy.Example(context=context, question=example.question, reasoning=" ".join(chain),
                                answer=example.answers[0]))
        direct.append(dspy.Example(context=context, question=example.question, answer=example.answers[0]))
    return DemoSet(reason, cot, direct)
