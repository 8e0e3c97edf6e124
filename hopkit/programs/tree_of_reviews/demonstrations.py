"""Tree of Reviews' in-context demonstrations from a training split, in the project's own words.

The paper uses 3-shot prompts from each dataset's training split. Four distinct reviews are built:
a bridge question's first paragraph (relevant, one hop short: search with a query for the missing
fact), a comparison question with both paragraphs (sufficient: accept, with the reasoning and the
answer), a paragraph the bridge question does not need (reject), and the comparison question with
only its first paragraph (relevant, one side short: search for the other side). The fourth is ours
(knob ``extra_demo``; the paper's 3 shots without it): a small reviewer tends to reject one side of a comparison as
"not enough to answer" and to accept one paragraph of an either-or question (docs/design/additions.md). A dataset
with no comparison questions (MuSiQue) shows its accept on a second bridge question and has no fourth. Plus
missing paragraphs written for bridge questions and fusion demonstrations for each fusion mode, ``shots`` of each
(the paper's 3, as many as the examples allow). Examples with hop
queries (bundled) use them; examples with only a chain of thought (IRCoT's files, through
``--demos-from``) get LM-written queries per fact (programs/searchain/chain_facts.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import dspy

from hopkit.data.corpus import Corpus
from hopkit.data.examples import Dataset
from hopkit.errors import InputError
from hopkit.programs.searchain.chain_facts import FactNode, fact_nodes, query_writer
from hopkit.text.question_form import OPEN, question_form


@dataclass(frozen=True)
class ReviewDemos:
    review: list[dspy.Example]
    review_step_by_step: list[dspy.Example]
    missing: list[dspy.Example]
    review_reasoned: list[dspy.Example] = field(default_factory=list)
    fusion: dict[str, list[dspy.Example]] = field(default_factory=dict)

    def for_review(self, knobs: Mapping[str, Any]) -> list[dspy.Example]:
        """The review demonstrations of a Tree of Reviews with these knobs."""
        return self.for_expansion(knobs["expansion"], knobs["mpc_review"])

    def for_expansion(self, expansion: str, mpc_review: str = "reasoning_first") -> list[dspy.Example]:
        """The review demonstrations in the shape of the review prompt: MPC's plain review is Direct's."""
        if expansion == "mpc":
            return self.review_reasoned if mpc_review == "reasoning_first" else self.review
        return {"direct": self.review, "cot": self.review_step_by_step}[expansion]


@dataclass(frozen=True)
class _Case:
    question: str
    paragraphs: list[str]
    relevant: bool
    sufficient: bool
    output: str
    answer: str
    why: str  # relevance thought
    reasoning: str  # the reasoning path, or what is missing
    next_step: str


def review_demos_for(train: Dataset, knobs: Mapping[str, Any]) -> ReviewDemos:
    """The demonstrations a Tree of Reviews with these knobs builds from a train split."""
    return build_review_demos(train.examples, train.own_corpus(), max_words=knobs["paragraph_words"],
                              extra_demo=knobs["extra_demo"], shots=knobs["shots"])


def build_review_demos(train: Sequence[dspy.Example], corpus: Corpus, max_words: int = 80,
                       write_query: dspy.Predict | None = None, extra_demo: bool = True,
                       shots: int = 1) -> ReviewDemos:
    """The review, missing-paragraph and fusion demonstrations; ``extra_demo`` (knob) adds the fourth review
    (a comparison with one side only) to the paper's three shots; ``shots`` (knob) is how many the missing-paragraph
    and fusion prompts get (the paper: 3), as many as the examples allow."""
    writer = write_query if write_query is not None or any(getattr(e, "hop_queries", None) for e in train) \
        else query_writer()
    bridge = _pick(train, corpus, writer, comparison=False)
    comparison = _pick(train, corpus, writer, comparison=True, avoid=bridge)
    # a dataset with no comparison questions (MuSiQue) shows its accept on a second bridge question, and has no
    # one-sided comparison to show
    accepted = comparison or (_pick(train, corpus, writer, comparison=False, avoid=bridge) if bridge else None)
    if bridge is None or accepted is None:
        raise InputError("Tree of Reviews demonstrations need two two-fact questions (a bridge question, and a "
                         "comparison or a second bridge question) whose paragraphs are in the corpus (e.g. "
                         "bundled:train, an IRCoT demonstration file or MuSiQue's train split)")
    comparison = accepted
    (b_ex, b_nodes), (c_ex, c_nodes) = bridge, comparison
    compares = _compares(c_ex)
    used = {f.supporting.pid for f in b_nodes + c_nodes}
    unrelated = next((corpus[pid] for ex in train for pid in ex.gold_pids
                      if pid in corpus and pid not in used and ex.qid not in (b_ex.qid, c_ex.qid)), None)
    if unrelated is None:
        raise InputError("Tree of Reviews demonstrations need a third example's paragraph to show a rejection")
    b1, b2 = (f.supporting.as_context(max_words) for f in b_nodes)
    c1, c2 = (f.supporting.as_context(max_words) for f in c_nodes)
    missing_query = b_nodes[1].node.query
    c_facts = " ".join(f.node.answer_text for f in c_nodes)
    c_answer = c_ex.answers[0]
    cases = [
        _Case(b_ex.question, [b1], True, False, missing_query, "",
              f"{b_nodes[0].node.answer_text} That is one step toward the answer.",
              f"{b_nodes[0].node.answer_text} Still missing: {missing_query}", "Search for the missing fact."),
        _Case(c_ex.question, [c1, c2], True, True, f"{c_facts} So the answer is {c_answer}.", c_answer,
              "Each paragraph is about one of the two things the question compares." if compares else
              "The first paragraph leads to what the second one is about.", f"{c_facts}",
              "Both facts are there, so the question can be answered."),
        _Case(b_ex.question, [unrelated.as_context(max_words)], False, False, "", "",
              f"The paragraph is about {unrelated.title}, which the question does not involve.",
              "Nothing here helps.", "This path is rejected."),
        _Case(c_ex.question, [c1], True, False, c_nodes[1].node.query, "",
              f"{c_nodes[0].node.answer_text} That is one side of the comparison.",
              f"{c_nodes[0].node.answer_text} Still missing, the other side: {c_nodes[1].node.query}",
              "Search for the other side."),
    ]
    if not extra_demo or not compares:  # the fourth shows one side of a comparison
        cases = cases[:3]
    inputs = ("question", "paragraphs")
    review = [dspy.Example(question=c.question, paragraphs=c.paragraphs, relevant=c.relevant, sufficient=c.sufficient,
                           output=c.output, answer=c.answer).with_inputs(*inputs) for c in cases]
    reasoned = [dspy.Example(question=c.question, paragraphs=c.paragraphs, reasoning=c.reasoning, relevant=c.relevant,
                             sufficient=c.sufficient, output=c.output, answer=c.answer).with_inputs(*inputs)
                for c in cases]
    step_by_step = [dspy.Example(question=c.question, paragraphs=c.paragraphs, relevance_thought=c.why,
                                 relevant=c.relevant, sufficiency_thought=c.reasoning, sufficient=c.sufficient,
                                 next_thought=c.next_step, output=c.output, answer=c.answer).with_inputs(*inputs)
                    for c in cases]
    bridges, accepts = [bridge], [comparison]
    taken = {b_ex.qid, c_ex.qid}
    for pool, wants_comparison in ((bridges, False), (accepts, compares)):
        while len(pool) < shots:
            more = _pick(train, corpus, writer, comparison=wants_comparison, avoid=taken)
            if more is None:
                break
            pool.append(more)
            taken.add(more[0].qid)
    missing = [_missing_demo(example, nodes, max_words) for example, nodes in bridges]
    fusion: dict[str, list[dspy.Example]] = {"analysis": [], "paragraph": [], "evidence": []}
    for example, nodes in accepts:
        for mode, demo in _fusion_demos(example, nodes, max_words).items():
            fusion[mode].append(demo)
    return ReviewDemos(review, step_by_step, missing, reasoned, fusion)


def _missing_demo(example: dspy.Example, nodes: list[FactNode], max_words: int) -> dspy.Example:
    """A bridge question's first paragraph, and the paragraph that would complete it written out."""
    return dspy.Example(question=example.question, references=[nodes[0].supporting.as_context(max_words)],
                        missing_information=nodes[1].node.answer_text,
                        answer=example.answers[0]).with_inputs("question", "references")


def _fusion_demos(example: dspy.Example, nodes: list[FactNode], max_words: int) -> dict[str, dspy.Example]:
    """An accepted question's fusion, in each fusion mode's fields."""
    first, second = (f.supporting.as_context(max_words) for f in nodes)
    facts = " ".join(f.node.answer_text for f in nodes)
    answer = example.answers[0]
    assertion = f"{facts} So the answer is {answer}."
    response = f"{facts} The answer is {answer}."
    return {
        "analysis": dspy.Example(assertions=[assertion], question=example.question, response=response,
                                 answer=answer).with_inputs("assertions", "question"),
        "paragraph": dspy.Example(paragraphs=[first, second], question=example.question, response=response,
                                  answer=answer).with_inputs("paragraphs", "question"),
        "evidence": dspy.Example(evidence=[f"Assertion: {assertion}\nParagraphs:\n{first}\n{second}"],
                                 question=example.question, response=response, answer=answer
                                 ).with_inputs("evidence", "question"),
    }


def _pick(train: Sequence[dspy.Example], corpus: Corpus, writer: dspy.Predict | None, comparison: bool,
          avoid: tuple | set | None = None) -> tuple[dspy.Example, list[FactNode]] | None:
    """The first two-fact example of the wanted kind whose two facts have two distinct known paragraphs (``avoid``:
    an earlier pick, or the qids of several)."""
    skipped = {avoid[0].qid} if isinstance(avoid, tuple) else set(avoid or ())
    for example in train:
        if example.qid in skipped:
            continue
        is_comparison = _compares(example)
        if is_comparison != comparison or not example.answers:
            continue
        facts = [s for s in (getattr(example, "chain", None) or []) if "answer is" not in s.lower()]
        hops = getattr(example, "hop_queries", None)
        if (hops is not None and len(hops) != 2) or len(facts) not in ((2, 3) if comparison else (2,)):
            continue  # two hops; a comparison's chain may end in its conclusion ("Thus ...")
        nodes = fact_nodes(example, corpus, writer, limit=2)
        if nodes and all(f.paragraph is not None for f in nodes) and nodes[0].supporting.pid != nodes[1].supporting.pid:
            return example, nodes
    return None


def _compares(example: dspy.Example) -> bool:
    return getattr(example, "type", None) == "comparison" or question_form(example.question) != OPEN
