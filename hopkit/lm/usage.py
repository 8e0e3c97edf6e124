"""Per-question accounting of LM calls, tokens, seconds and retrievals.

A scope is entered around one program run; every LM call and retrieval made in
that thread while it is active is added to it. Scopes are context variables, so
evaluation threads each account for their own question.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields

_ACTIVE: contextvars.ContextVar["Usage | None"] = contextvars.ContextVar("hopkit_usage", default=None)


@dataclass
class Usage:
    lm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    lm_seconds: float = 0.0
    cache_hits: int = 0
    retrievals: int = 0
    seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_lm_call(self, prompt_tokens: int, completion_tokens: int, seconds: float, cache_hit: bool) -> None:
        with self._lock:
            self.lm_calls += 1
            self.prompt_tokens += prompt_tokens
            self.completion_tokens += completion_tokens
            self.lm_seconds += seconds
            self.cache_hits += int(cache_hit)

    def add_retrieval(self) -> None:
        with self._lock:
            self.retrievals += 1

    def to_dict(self) -> dict:
        row = {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}
        row["lm_seconds"] = round(row["lm_seconds"], 3)
        row["seconds"] = round(row["seconds"], 3)
        return row


def current_usage() -> Usage | None:
    return _ACTIVE.get()


@contextmanager
def usage_scope() -> Iterator[Usage]:
    """Account everything run inside the block; ``seconds`` is the block's wall time."""
    usage = Usage()
    token = _ACTIVE.set(usage)
    start = time.perf_counter()
    try:
        yield usage
    finally:
        usage.seconds = time.perf_counter() - start
        _ACTIVE.reset(token)
