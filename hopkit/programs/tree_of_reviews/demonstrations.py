"""Tree of Reviews' in-context demonstrations from a training split, in the project's own words
(the paper uses 3-shot prompts): a path that is one hop short (search), a path that answers
(accept), a paragraph the question does not need (reject), and a missing paragraph written from
what the next hop states."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import dspy

from hopkit.data.corpus import Corpus
from hopkit.errors import InputError


@dataclass(frozen=True)
class ReviewDemos:
    review: list[dspy.Example]
    review_step_by_step: list[dspy.Example]
    missing: list[dspy.Example]


def build_review_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int = 80) -> ReviewDemos:
    usable = [ex for ex in train if getattr(ex, "hop_queries", None) and len(getattr(ex, "hop_queries", [])) == 2
              and len(ex.gold_pids) == 2 and all(pid in corpus for pid in ex.gold_pids)
              and len(getattr(ex, "chain", [])) == 3]
    if len(usable) < 2:
        raise InputError("Tree of Reviews demonstrations need two-hop training examples with hop queries and a "
                         "reasoning chain (e.g. bundled:train)")
    bridge, other = usable[0], usable[1]
    first, second = (corpus[pid].as_context(max_words) for pid in bridge.gold_pids)
    unrelated = corpus[other.gold_pids[1]]
    cases = [
        ([first], True, False, bridge.hop_queries[1],
         (f"{bridge.chain[0]} That is one step toward the answer.", f"Still missing: {bridge.hop_queries[1]}",
          "The next fact to find is the answer to that question.")),
        ([first, second], True, True, f"{bridge.chain[0]} {bridge.chain[1]} {bridge.chain[2]}",
         ("Both paragraphs hold facts on the way to the answer.", f"{bridge.chain[0]} {bridge.chain[1]}",
          "Every fact is there, so the question can be answered.")),
        ([unrelated.as_context(max_words)], False, False, "",
         (f"The paragraph is about {unrelated.title}, which the question does not involve.",
          "Nothing here helps.", "This path is rejected.")),
    ]
    review, step_by_step = [], []
    for paragraphs, relevant, sufficient, output, (why, facts, next_step) in cases:
        review.append(dspy.Example(question=bridge.question, paragraphs=paragraphs, relevant=relevant, sufficient=sufficient,
                                   output=output).with_inputs("question", "paragraphs"))
        step_by_step.append(dspy.Example(question=bridge.question, paragraphs=paragraphs, relevance_thought=why,
                                         relevant=relevant, sufficiency_thought=facts, sufficient=sufficient,
                                         next_thought=next_step, output=output).with_inputs("question", "paragraphs"))
    missing = [dspy.Example(question=bridge.question, references=[first], missing_information=bridge.chain[1],
                            answer=bridge.answers[0]).with_inputs("question", "references")]
    return ReviewDemos(review, step_by_step, missing)
