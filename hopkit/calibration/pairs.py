"""(query, retrieved passage, does it answer?) pairs from a dev set, as SearChain's verifier meets them.

Each query gives its top ``depth`` passages (SearChain reads the top-1; the ranks below it supply the passages
that do not answer, without which a confidence cannot be judged: with fine-tuned ColBERT the top-1 answered 44
of 45 bundled hop queries).

``hops``: each single-hop query of a question that has them (the bundled benchmark) with the
retriever's top passage; it answers when it is that hop's gold paragraph. ``questions``: the question
with its top passage; it answers when it holds a gold answer the question does not already name
(a passage naming an entity the question names has not answered anything, and a yes/no answer
is never a span). ``auto``: hops where the dataset has them, else questions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import dspy

from hopkit.data.passage import Passage
from hopkit.errors import InputError
from hopkit.retrieval.protocol import Retriever
from hopkit.text.normalize import normalize_answer

QuerySource = Literal["auto", "hops", "questions"]
QUERY_SOURCES = ("auto", "hops", "questions")
_YES_NO = {"yes", "no"}


@dataclass(frozen=True)
class Pair:
    qid: str
    query: str
    passage: Passage
    answers: bool  # the label: the passage answers the query

    @property
    def key(self) -> str:
        return f"{self.qid}\t{self.query}\t{self.passage.pid}"


def has_hops(example: dspy.Example) -> bool:
    hops = example.get("hop_queries") if hasattr(example, "get") else None
    return bool(hops) and len(hops or ()) == len(example.gold_pids)


def passage_answers_question(passage: Passage, question: str, answers: list[str]) -> bool:
    text, asked = f" {normalize_answer(passage.text)} ", f" {normalize_answer(question)} "
    for answer in answers:
        norm = normalize_answer(answer)
        if norm and norm not in _YES_NO and f" {norm} " not in asked and f" {norm} " in text:
            return True
    return False


def calibration_pairs(examples: list[dspy.Example], retriever: Retriever, source: QuerySource = "auto",
                      depth: int = 1) -> Iterator[Pair]:
    if source not in QUERY_SOURCES:
        raise InputError(f"unknown query source {source!r}; use one of {', '.join(QUERY_SOURCES)}")
    use_hops = source == "hops" or (source == "auto" and any(has_hops(e) for e in examples))
    if use_hops and not any(has_hops(e) for e in examples):
        raise InputError("this dataset has no hop queries (hop_queries aligned with gold_pids); use --queries "
                         "questions")
    for example in examples:
        if use_hops:
            if not has_hops(example):
                continue
            for query, gold in zip(example.hop_queries, example.gold_pids):
                for passage in retriever.retrieve(query, depth):
                    yield Pair(example.qid, query, passage, passage.pid == gold)
        else:
            for passage in retriever.retrieve(example.question, depth):
                yield Pair(example.qid, example.question, passage,
                           passage_answers_question(passage, example.question, list(example.answers)))
