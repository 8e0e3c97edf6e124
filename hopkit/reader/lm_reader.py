"""The LM as an extractive reader: a span copied from the passage, scored by token log-probabilities."""

from __future__ import annotations

from collections.abc import Sequence

import dspy

from hopkit.data.passage import Passage
from hopkit.lm.logprobs import value_confidence
from hopkit.reader.locate import locate
from hopkit.reader.protocol import Span
from hopkit.signatures.extract_span import NO_ANSWER, SPAN_DEMOS, ExtractAnswerSpan


class LMReader(dspy.Module):
    """Reads each passage, keeps the located span with the highest confidence.

    Confidence is exp(mean token log-probability) of the span as generated. A span that is
    not in the passage verbatim (the LM paraphrased), or longer than ``max_span_words`` (it copied
    a passage, not an answer), keeps its text but scores 0, since the reader's job is to point at
    a short piece of evidence. Works with any LM that returns log-probabilities.
    """

    confidence_scale = "probability"

    def __init__(self, max_words: int = 200, max_span_words: int = 15) -> None:
        super().__init__()
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
        out = self.extract(question=question, paragraph=passage.as_context(self.max_words), config={"logprobs": True})
        text = (out.span or "").strip()
        if not text or text.upper().rstrip(".") == NO_ANSWER:
            return Span(text="", score=0.0, pid=passage.pid)
        start, end = locate(text, passage.text)
        confidence = value_confidence(getattr(out, "logprobs", None), out.span.strip())
        if start < 0 or len(text.split()) > self.max_span_words:  # paraphrased, or a passage rather than a span
            return Span(text=text, score=0.0, pid=passage.pid)
        return Span(text=passage.text[start:end], score=confidence, pid=passage.pid, start=start, end=end)
