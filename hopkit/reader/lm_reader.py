"""The LM as an extractive reader: a span copied from the passage, with a confidence from token log-probabilities.

Two confidences (``confidence=``):

- ``answerability`` (default): one call judges whether the passage states the answer to the query and
  copies the span; the confidence is P(true) of that judgment, read from the log-probabilities of the
  judgment's token. This is what SearChain's f means (the paper's DPR reader scores whether the passage
  answers the query). A span that only repeats words of the query scores 0: copying an entity the query
  already names is not an answer.
- ``span``: the older measure, exp(mean token log-probability) of the copied span. A span copied from
  the query scores high under it, which is why it is no longer the default.

In both, a span that is not in the passage verbatim (the LM paraphrased) or longer than
``max_span_words`` (it copied a passage, not an answer) keeps its text but scores 0. An output that
does not parse gives an empty span with no score, marked ``failed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.data.passage import Passage
from hopkit.lm.logprobs import judgment_probability, value_confidence
from hopkit.reader.locate import locate
from hopkit.reader.protocol import Span
from hopkit.signatures.extract_span import JUDGE_DEMOS, NO_ANSWER, SPAN_DEMOS, ExtractAnswerSpan, JudgeAndExtract
from hopkit.text.normalize import normalize_answer

Confidence = Literal["answerability", "span"]
CONFIDENCES: tuple[Confidence, ...] = ("answerability", "span")
TOP_ALTERNATIVES = 5  # alternatives per token, enough to hold both true and false
CALIBRATED_THETA = 0.5  # calibrate-reader's suggestion for the answerability confidence (see calibrated_theta)


def repeats_query(span: str, query: str) -> bool:
    """The span's words all appear, in order, in the query (e.g. the entity the query asks about)."""
    words = normalize_answer(span)
    return bool(words) and f" {words} " in f" {normalize_answer(query)} "


class LMReader(dspy.Module):
    """Reads each passage, keeps the located span with the highest confidence."""

    confidence_scale = "probability"

    @property
    def calibrated_theta(self) -> float | None:
        """SearChain's theta for this confidence, chosen the paper's way: the threshold with the best F1 of "this
        passage answers" over a 0.1-step sweep (``hopkit calibrate-reader``). The answerability confidence rarely
        reaches the paper's 0.82, which would never let IR correct, so it has its own calibrated value; ``span``
        keeps the paper's 0.82 (None)."""
        return CALIBRATED_THETA if self.confidence == "answerability" else None

    def __init__(self, max_words: int = 200, max_span_words: int = 15,
                 confidence: Confidence = "answerability") -> None:
        super().__init__()
        if confidence not in CONFIDENCES:
            raise ValueError(f"unknown reader confidence {confidence!r}; use one of {', '.join(CONFIDENCES)}")
        self.confidence = confidence
        if confidence == "answerability":
            self.extract = dspy.Predict(JudgeAndExtract)
            self.extract.demos = list(JUDGE_DEMOS)
        else:
            self.extract = dspy.Predict(ExtractAnswerSpan)
            self.extract.demos = list(SPAN_DEMOS)
        self.max_words, self.max_span_words = max_words, max_span_words

    def read(self, question: str, passages: Sequence[Passage]) -> Span:
        spans = [self._read_one(question, passage) for passage in passages]
        if not spans:
            return Span(text="", score=None, pid=None)
        return max(spans, key=lambda s: (s.located, s.score if s.score is not None else -1.0))

    def read_batch(self, items: Sequence[tuple[str, Sequence[Passage]]]) -> list[Span]:
        return [self.read(question, passages) for question, passages in items]

    def _read_one(self, question: str, passage: Passage) -> Span:
        paragraph = passage.as_context(self.max_words)
        try:
            if self.confidence == "answerability":
                out = self.extract(query=question, paragraph=paragraph,
                                   config={"logprobs": True, "top_logprobs": TOP_ALTERNATIVES})
            else:
                out = self.extract(question=question, paragraph=paragraph, config={"logprobs": True})
        except AdapterParseError:
            return Span(text="", score=None, pid=passage.pid, failed=True)
        text = (out.span or "").strip()
        if self.confidence == "answerability":
            confidence = judgment_probability(getattr(out, "logprobs", None), "answers")
            if confidence is None:  # no log-probabilities: the judgment itself, as 1 or 0
                confidence = 1.0 if out.answers else 0.0
        else:
            confidence = value_confidence(getattr(out, "logprobs", None), text) if text else None
        if not text or text.upper().rstrip(".") == NO_ANSWER:
            return Span(text="", score=0.0 if self.confidence == "span" else confidence, pid=passage.pid)
        start, end = locate(text, passage.text)
        if start < 0 or len(text.split()) > self.max_span_words:  # paraphrased, or a passage rather than a span
            return Span(text=text, score=0.0, pid=passage.pid)
        if self.confidence == "answerability" and repeats_query(text, question):
            confidence = 0.0
        return Span(text=passage.text[start:end], score=confidence, pid=passage.pid, start=start, end=end)
