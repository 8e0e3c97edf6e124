"""A dspy.LM that reports every call (tokens, seconds, cache hits) to the active usage scope, and a cache hit's
cost as it was computed (hopkit.lm.cost_ledger)."""

from __future__ import annotations

import threading
import time
from typing import Any

import dspy

from hopkit.lm.cost_ledger import default_ledger, request_key
from hopkit.lm.usage import current_usage

_pending = threading.local()


class AccountedLM(dspy.LM):
    """``dspy.LM`` plus accounting; behaves exactly like ``dspy.LM`` otherwise."""

    def __call__(self, prompt: Any = None, *, messages: Any = None, **kwargs: Any) -> Any:
        _pending.entries = []
        key = request_key(self.model, prompt, messages, {**self.kwargs, **kwargs})
        start = time.perf_counter()
        try:
            return super().__call__(prompt, messages=messages, **kwargs)
        finally:
            self._account(time.perf_counter() - start, getattr(_pending, "entries", []), key)
            _pending.entries = []

    def update_history(self, entry: dict) -> None:
        if hasattr(_pending, "entries"):
            _pending.entries.append(entry)
        super().update_history(entry)

    def _account(self, seconds: float, entries: list[dict], key: str) -> None:
        """Report the call to the usage scope, if any; a computed call's cost is kept in the ledger either way
        (a question asked before an evaluation, as ``hopkit demo`` does, is replayed in it at its real cost)."""
        usage = current_usage()
        prompt_tokens = completion_tokens = 0
        cache_hit = False
        truncated = any(_stopped_at_max_tokens(entry.get("response")) for entry in entries)
        for entry in entries:
            numbers = entry.get("usage") or {}
            tokens_in = int(numbers.get("prompt_tokens") or numbers.get("input_tokens") or 0)
            tokens_out = int(numbers.get("completion_tokens") or numbers.get("output_tokens") or 0)
            prompt_tokens, completion_tokens = prompt_tokens + tokens_in, completion_tokens + tokens_out
            # DSPy 3.4 marks a cached answer only by leaving its usage empty: a real call always has tokens
            cache_hit = cache_hit or bool(getattr(entry.get("response"), "cache_hit", False)) or (
                tokens_in + tokens_out == 0)
        ledger = default_ledger()
        computed = None
        if ledger is not None and cache_hit:
            computed = ledger.lookup(key)
        elif ledger is not None and entries:
            ledger.record(key, prompt_tokens, completion_tokens, seconds)
        if usage is None:
            return
        usage.add_lm_call(prompt_tokens, completion_tokens, seconds, cache_hit, computed, truncated)


def _stopped_at_max_tokens(response: Any) -> bool:
    """Whether a response says its output stopped at max_tokens (finish_reason "length"): DSPy's engine response
    carries the reason itself, an OpenAI-style one (object or dict) on each of its choices."""
    def field(item: Any, name: str) -> Any:
        return item.get(name) if isinstance(item, dict) else getattr(item, name, None)

    if field(response, "finish_reason") == "length":
        return True
    return any(field(choice, "finish_reason") == "length" for choice in field(response, "choices") or ())
