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

_ACTIVE: contextvars.ContextVar[Usage | None] = contextvars.ContextVar("hopkit_usage", default=None)


@dataclass
class Usage:
    lm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    lm_seconds: float = 0.0
    cache_hits: int = 0
    retrievals: int = 0
    seconds: float = 0.0
    truncated: int = 0  # calls whose output stopped at max_tokens (cut short: its fields may be missing or partial)
    # the same calls as they cost when computed: a cache hit adds what its first computation cost
    computed_prompt_tokens: int = 0
    computed_completion_tokens: int = 0
    computed_lm_seconds: float = 0.0
    uncosted_hits: int = 0  # cache hits computed before their cost was kept (hopkit.lm.cost_ledger)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    # answers computed in the scope, stored in the answer cache when it ends unless it failed
    # (hopkit.lm.accounted): (thread, key, value)
    _held: list = field(default_factory=list, repr=False, compare=False)
    failed: bool = field(default=False, repr=False, compare=False)

    def hold_answer(self, key: dict, value: dict) -> None:
        with self._lock:
            self._held.append((threading.get_ident(), key, value))

    def drop_last_answer(self) -> None:
        """This thread's latest held answer is not stored (its output did not parse)."""
        me = threading.get_ident()
        with self._lock:
            for position in range(len(self._held) - 1, -1, -1):
                if self._held[position][0] == me:
                    del self._held[position]
                    return

    def store_held_answers(self) -> None:
        import dspy

        with self._lock:
            held, self._held = self._held, []
        for _, key, value in held:
            dspy.cache.put(key, value)

    def add_lm_call(self, prompt_tokens: int, completion_tokens: int, seconds: float, cache_hit: bool,
                    computed: tuple[int, int, float] | None = None, truncated: bool = False) -> None:
        """One call as it ran now; ``computed``: a cache hit's (tokens in, tokens out, seconds) when computed;
        ``truncated``: its output stopped at max_tokens."""
        if not cache_hit:
            computed = (prompt_tokens, completion_tokens, seconds)
        with self._lock:
            self.lm_calls += 1
            self.truncated += int(truncated)
            self.prompt_tokens += prompt_tokens
            self.completion_tokens += completion_tokens
            self.lm_seconds += seconds
            self.cache_hits += int(cache_hit)
            if computed is None:
                self.uncosted_hits += 1
            else:
                self.computed_prompt_tokens += computed[0]
                self.computed_completion_tokens += computed[1]
                self.computed_lm_seconds += computed[2]

    def add_retrieval(self) -> None:
        with self._lock:
            self.retrievals += 1

    def to_dict(self) -> dict:
        """This run's cost (what the cache saved included) and, under ``computed``, what answering cost when its
        LM calls were computed: the question's wall time with each replayed call's time swapped for its own."""
        row = {f.name: getattr(self, f.name) for f in fields(self)
               if not f.name.startswith(("_", "computed_", "uncosted")) and f.name != "failed"}
        row["lm_seconds"] = round(row["lm_seconds"], 3)
        row["seconds"] = round(row["seconds"], 3)
        row["computed"] = {"prompt_tokens": self.computed_prompt_tokens,
                           "completion_tokens": self.computed_completion_tokens,
                           "lm_seconds": round(self.computed_lm_seconds, 3),
                           "seconds": round(self.seconds - self.lm_seconds + self.computed_lm_seconds, 3),
                           "uncosted_hits": self.uncosted_hits}
        return row


def computed_cost(cost: dict) -> dict:
    """A run-log row's cost as computed (tokens and seconds of answering with no cache), cache hits apart; a row
    from before costs were kept reads its own figures (a replayed call then counts 0 tokens)."""
    computed = cost.get("computed") or {}
    return {"lm_calls": int(cost.get("lm_calls", 0) or 0),
            "prompt_tokens": int(computed.get("prompt_tokens", cost.get("prompt_tokens", 0)) or 0),
            "completion_tokens": int(computed.get("completion_tokens", cost.get("completion_tokens", 0)) or 0),
            "seconds": float(computed.get("seconds", cost.get("seconds", 0)) or 0),
            "cache_hits": int(cost.get("cache_hits", 0) or 0),
            "truncated": int(cost.get("truncated", 0) or 0),
            "uncosted_hits": int(computed.get("uncosted_hits", cost.get("cache_hits", 0) if not computed else 0)
                                 or 0)}


def current_usage() -> Usage | None:
    return _ACTIVE.get()


@contextmanager
def usage_scope() -> Iterator[Usage]:
    """Account everything run inside the block; ``seconds`` is the block's wall time. The block's computed answers
    go to the answer cache when it ends, unless it raised or set ``usage.failed``."""
    usage = Usage()
    token = _ACTIVE.set(usage)
    start = time.perf_counter()
    try:
        yield usage
    except BaseException:
        usage.failed = True
        raise
    finally:
        usage.seconds = time.perf_counter() - start
        _ACTIVE.reset(token)
        if not usage.failed:
            usage.store_held_answers()
