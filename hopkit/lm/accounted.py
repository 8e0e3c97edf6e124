"""A dspy.LM that reports every call (tokens, seconds, cache hits) to the active usage scope, a cache hit's cost as
it was computed (hopkit.lm.cost_ledger), and keeps its own answer cache.

The answer cache is DSPy's store (``dspy.cache``, memory and disk) under hopkit's key, which DSPy's own does not
give: the key names the endpoint (the server's URL, or the local model file), so a dead or different server is
never answered from another one's replies. Inside a usage scope (one question of an evaluation) answers are held
and stored only when the question ends without an error, and an answer DSPy's adapter could not parse is never
stored, so a rerun asks again instead of replaying the failure (docs/lm.md, "The LM cache").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import dspy
import orjson
from dspy.utils.callback import BaseCallback

from hopkit.lm.cost_ledger import default_ledger, request_key
from hopkit.lm.usage import current_usage

_pending = threading.local()
# never part of a key: the same server answers whoever asks and however long it may take (the endpoint stands
# for api_base)
NOT_IN_KEY = ("api_key", "api_base", "base_url", "timeout")


class AccountedLM(dspy.LM):
    """``dspy.LM`` plus accounting and an answer cache that knows its endpoint; behaves like ``dspy.LM`` otherwise.

    ``endpoint`` names where answers come from (default: ``api_base``); ``cache`` turns the answer cache on, and a
    call's own ``cache=False`` skips it (the reachability check does)."""

    def __init__(self, model: str, *, cache: bool = True, endpoint: str | None = None, **kwargs: Any) -> None:
        super().__init__(model, cache=False, **kwargs)  # DSPy's cache keys ignore api_base: hopkit keeps its own
        self.answer_cache = cache
        self.endpoint = endpoint if endpoint is not None else str(kwargs.get("api_base") or "")

    def __call__(self, prompt: Any = None, *, messages: Any = None, **kwargs: Any) -> Any:
        use_cache = self.answer_cache and kwargs.pop("cache", True)
        settings = {**self.kwargs, **kwargs}
        key = request_key(self.model, prompt, messages, settings)
        answer_key = self.answer_key(prompt, messages, settings) if use_cache else None
        if answer_key is not None:
            stored = dspy.cache.get(answer_key)
            if isinstance(stored, dict) and "outputs" in stored:
                self._account_hit(key, bool(stored.get("truncated")))
                return stored["outputs"]
        _pending.entries = []
        start = time.perf_counter()
        outputs = None
        try:
            outputs = super().__call__(prompt, messages=messages, **kwargs)
            return outputs
        finally:
            entries = getattr(_pending, "entries", [])
            truncated = self._account(time.perf_counter() - start, entries, key)
            _pending.entries = []
            if answer_key is not None and outputs is not None and _storable(outputs):
                keep_answer(answer_key, {"outputs": outputs, "truncated": truncated})

    def answer_key(self, prompt: Any, messages: Any, settings: dict[str, Any]) -> dict[str, Any]:
        """The request as hopkit's answer cache keys it (``dspy.cache`` hashes it, and skips one it cannot)."""
        return {"hopkit_answer_cache": 1, "endpoint": self.endpoint, "model": self.model, "prompt": prompt,
                "messages": messages, "settings": {k: v for k, v in settings.items() if k not in NOT_IN_KEY}}

    def update_history(self, entry: dict) -> None:
        if hasattr(_pending, "entries"):
            _pending.entries.append(entry)
        super().update_history(entry)

    def _account_hit(self, key: str, truncated: bool) -> None:
        usage = current_usage()
        if usage is None:
            return
        ledger = default_ledger()
        usage.add_lm_call(0, 0, 0.0, True, ledger.lookup(key) if ledger is not None else None, truncated)

    def _account(self, seconds: float, entries: list[dict], key: str) -> bool:
        """Report a computed call to the usage scope, if any, and keep its cost in the ledger either way (a question
        asked before an evaluation, as ``hopkit demo`` does, is replayed in it at its real cost). Returns whether
        its output stopped at max_tokens."""
        usage = current_usage()
        prompt_tokens = completion_tokens = 0
        cache_hit = False
        truncated = any(_stopped_at_max_tokens(entry.get("response")) for entry in entries)
        for entry in entries:
            numbers = entry.get("usage") or {}
            tokens_in = int(numbers.get("prompt_tokens") or numbers.get("input_tokens") or 0)
            tokens_out = int(numbers.get("completion_tokens") or numbers.get("output_tokens") or 0)
            prompt_tokens, completion_tokens = prompt_tokens + tokens_in, completion_tokens + tokens_out
            # a response replayed by a cache below this LM (a server's) comes back with no usage
            cache_hit = cache_hit or bool(getattr(entry.get("response"), "cache_hit", False)) or (
                tokens_in + tokens_out == 0)
        ledger = default_ledger()
        computed = None
        if ledger is not None and cache_hit:
            computed = ledger.lookup(key)
        elif ledger is not None and entries:
            ledger.record(key, prompt_tokens, completion_tokens, seconds)
        if usage is not None:
            usage.add_lm_call(prompt_tokens, completion_tokens, seconds, cache_hit, computed, truncated)
        return truncated


def keep_answer(answer_key: dict[str, Any], value: dict[str, Any]) -> None:
    """Store an answer now, or, inside a usage scope, when its question ends without an error."""
    usage = current_usage()
    if usage is None:
        dspy.cache.put(answer_key, value)
    else:
        usage.hold_answer(answer_key, value)


class _Watch(BaseCallback):
    """Within a question: an answer the adapter could not parse is dropped from the question's held answers (so it
    is asked again), and a plain ``dspy.LM`` (a user's, through the Python API) is accounted as AccountedLM
    accounts itself, from the usage its history entry records."""

    def __init__(self) -> None:
        self._started: dict[str, tuple[Any, float, int]] = {}
        self._lock = threading.Lock()

    def on_adapter_parse_end(self, call_id: str, outputs: Any, exception: BaseException | None = None) -> None:
        usage = current_usage()
        if exception is not None and usage is not None:
            usage.drop_last_answer()

    def on_lm_start(self, call_id: str, instance: Any, inputs: dict[str, Any]) -> None:
        if isinstance(instance, AccountedLM) or current_usage() is None:
            return
        with self._lock:
            self._started[call_id] = (instance, time.perf_counter(), len(getattr(instance, "history", []) or []))

    def on_lm_end(self, call_id: str, outputs: Any, exception: BaseException | None = None) -> None:
        with self._lock:
            started = self._started.pop(call_id, None)
        usage = current_usage()
        if started is None or usage is None or exception is not None:
            return
        instance, start, before = started
        history = (getattr(instance, "history", None) or [])[before:]  # only this call's entries, not a copy of all
        entry = next((e for e in reversed(history) if e.get("outputs") == outputs), history[-1] if history else {})
        numbers = entry.get("usage") or {}
        tokens_in = int(numbers.get("prompt_tokens") or numbers.get("input_tokens") or 0)
        tokens_out = int(numbers.get("completion_tokens") or numbers.get("output_tokens") or 0)
        usage.add_lm_call(tokens_in, tokens_out, time.perf_counter() - start, tokens_in + tokens_out == 0,
                          None, _stopped_at_max_tokens(entry.get("response")))


_WATCH = _Watch()


@contextmanager
def watching_calls() -> Iterator[None]:
    """Within the block, unparsable answers are not stored and a plain dspy.LM's calls are accounted (the watch
    joins DSPy's other callbacks)."""
    active = list(dspy.settings.get("callbacks", None) or [])
    if _WATCH in active:
        yield
        return
    with dspy.context(callbacks=[*active, _WATCH]):
        yield


def _storable(outputs: Any) -> bool:
    """Plain data only (DSPy's disk cache refuses arbitrary objects): a list of texts or of JSON-like dicts."""
    if not isinstance(outputs, list):
        return False
    try:
        orjson.dumps(outputs)
    except TypeError:
        return False
    return True


def _stopped_at_max_tokens(response: Any) -> bool:
    """Whether a response says its output stopped at max_tokens (finish_reason "length"): DSPy's engine response
    carries the reason itself, an OpenAI-style one (object or dict) on each of its choices."""
    def field(item: Any, name: str) -> Any:
        return item.get(name) if isinstance(item, dict) else getattr(item, name, None)

    if field(response, "finish_reason") == "length":
        return True
    return any(field(choice, "finish_reason") == "length" for choice in field(response, "choices") or ())
