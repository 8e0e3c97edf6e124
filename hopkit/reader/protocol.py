"""The reader protocol: the best answer span in the given passages, with its confidence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from hopkit.data.passage import Passage


@dataclass(frozen=True)
class Span:
    """``start``/``end`` are character offsets in the passage's text; -1 when the span was not
    found verbatim there. ``score`` is the reader's confidence; ``None`` if it gave none."""

    text: str
    score: float | None
    pid: str | None
    start: int = -1
    end: int = -1
    failed: bool = False

    @property
    def located(self) -> bool:
        return self.start >= 0

    def to_dict(self) -> dict:
        return {"text": self.text, "score": self.score, "pid": self.pid, "start": self.start, "end": self.end,
                **({"failed": True} if self.failed else {})}


@runtime_checkable
class Reader(Protocol):
    """``confidence_scale`` says what ``Span.score`` is: "probability" (in [0, 1]) or "logit" (unbounded,
    e.g. DPR's relevance score); programs with a confidence threshold map logits through a sigmoid."""

    confidence_scale: str

    def read(self, question: str, passages: Sequence[Passage]) -> Span: ...

    def read_batch(self, items: Sequence[tuple[str, Sequence[Passage]]]) -> list[Span]: ...
