"""Evidence fusion: the reader answers from the analyses, the paragraphs, or both (the paper's Tables 10-12),
and the pool's paragraphs are ranked by similarity to the response when more than 15 are kept: the retriever's
own similarity (the paper ranks evidence by similarity to the final response), or token F1 as a knob."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import dspy

from hopkit.data.passage import Passage
from hopkit.programs.tree_of_reviews.tree import Evidence
from hopkit.retrieval.protocol import Retriever
from hopkit.signatures.tree_of_reviews import AnswerFromAnalyses, AnswerFromEvidence, AnswerFromParagraphs
from hopkit.text.similarity import token_f1

Fusion = Literal["analysis", "paragraph", "evidence"]


def within_limit(items: list[str], limit: int, question: str = "") -> list[str]:
    """The items in order while they fit ``limit`` wordpieces with the question (0: no limit): the paper adds as
    much evidence from the pool as its reader's 4,096 tokens hold."""
    if not limit:
        return items
    from hopkit.text.wordpieces import count_wordpieces

    spent = count_wordpieces(question)
    kept: list[str] = []
    for item in items:
        spent += count_wordpieces(item)
        if spent > limit and kept:
            break
        kept.append(item)
    return kept


class EvidenceFusion(dspy.Module):
    def __init__(self, mode: Fusion, max_words: int, reader_tokens: int = 0) -> None:
        super().__init__()
        self.mode, self.max_words, self.reader_tokens = mode, max_words, reader_tokens
        self.from_analyses = dspy.Predict(AnswerFromAnalyses)
        self.from_paragraphs = dspy.Predict(AnswerFromParagraphs)
        self.from_evidence = dspy.Predict(AnswerFromEvidence)

    def set_demos(self, demos: dict[str, list[dspy.Example]]) -> None:
        """Fusion demonstrations per mode: ``{"analysis": [...], "paragraph": [...], "evidence": [...]}``."""
        for mode, step in (("analysis", self.from_analyses), ("paragraph", self.from_paragraphs),
                           ("evidence", self.from_evidence)):
            step.demos = list(demos.get(mode, []))

    def inputs(self, pool: Sequence[Evidence], passages: dict[str, Passage],
               question: str = "") -> dict[str, list[str]]:
        """What the reader sees for this mode, the pool in order up to the reader's limit (exposed so tests can pin
        the selection)."""
        if self.mode == "analysis":
            items = {"assertions": [e.analysis for e in pool if e.analysis]}
        elif self.mode == "paragraph":
            pids = dict.fromkeys(pid for e in pool for pid in e.pids)
            items = {"paragraphs": [passages[pid].as_context(self.max_words) for pid in pids]}
        else:
            items = {"evidence": [f"Assertion: {e.analysis}\nParagraphs:\n"
                                  + "\n".join(passages[pid].as_context(self.max_words) for pid in e.pids)
                                  for e in pool]}
        return {name: within_limit(values, self.reader_tokens, question) for name, values in items.items()}

    def forward(self, question: str, pool: Sequence[Evidence], passages: dict[str, Passage]) -> dspy.Prediction:
        fields = self.inputs(pool, passages, question)
        step = {"analysis": self.from_analyses, "paragraph": self.from_paragraphs,
                "evidence": self.from_evidence}[self.mode]
        return step(question=question, **fields)

    def paragraphs_only(self, question: str, paragraphs: list[Passage]) -> dspy.Prediction:
        """The reader when the pool is empty: paragraph-based over what the search found relevant."""
        shown = within_limit([p.as_context(self.max_words) for p in paragraphs], self.reader_tokens, question)
        return self.from_paragraphs(question=question, paragraphs=shown)


RERANK_DEPTH = 100  # how deep the retriever ranks the corpus for the response


def rank_by_response(pids: Sequence[str], passages: dict[str, Passage], response: str, keep: int,
                     retriever: Retriever | None = None) -> list[str]:
    """All pids; when there are more than ``keep``, ordered by similarity to the final response (stable).

    With a retriever: its ranking of the corpus for the response as a query (pool paragraphs it does
    not rank in its top RERANK_DEPTH keep their order, after the ranked ones). Without: token F1."""
    pids = list(dict.fromkeys(pids))
    if len(pids) <= keep:
        return pids
    if retriever is not None and response.strip():
        rank = {p.pid: i for i, p in enumerate(retriever.retrieve(response, max(RERANK_DEPTH, len(pids))))}
        return sorted(pids, key=lambda pid: rank.get(pid, len(rank)))
    return sorted(pids, key=lambda pid: -token_f1(passages[pid].as_context(), response))
