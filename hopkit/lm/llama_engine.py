"""A DSPy engine over llama-cpp-python: the offline LM, from a local GGUF file.

DSPy's LM owns caching, retries and history; this engine answers one canonical request
with one response, including token log-probabilities when the request asks for them.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from dspy.lm15 import Message, Response, TextPart, TokenLogprob, TopLogprob, Usage, response_to_events

from hopkit.errors import MissingArtifactError
from hopkit.lm.cpu_turns import CpuTurns, turns_wanted


def _system_text(system: Any) -> str | None:
    if system is None:
        return None
    return system if isinstance(system, str) else "".join(getattr(p, "text", "") or "" for p in system)


def refuse_foreign_build() -> None:
    """A llama.cpp build that uses instructions this CPU lacks (a native wheel built on another machine) would die
    with an illegal instruction at the first call: it is refused here in one line (hopkit/lm/build_check.py)."""
    from hopkit.lm.build_check import build_features, cpu_flags, missing_on_this_cpu, system_info

    missing = missing_on_this_cpu(build_features(system_info()), cpu_flags())
    if missing:
        raise MissingArtifactError(f"the installed llama-cpp-python was built for a CPU with {', '.join(missing)}, "
                                   "which this one lacks: rebuild it here with `bash scripts/install.sh --rebuild-lm`")


def default_prefix_cache_bytes() -> int:
    """A quarter of the machine's memory, at most 6 GiB. A saved state of a few-shot prompt holds its KV cells and a
    copy of the logits buffer (about half a GB for a 1.5B model at 8k tokens), and every call saves one: each
    predictor's demonstrations (IRCoT's reasoner and reader, ToR's review and fusion) must outlive the calls made
    between two of its own, or its prefix is evaluated again at every question."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 8 << 30
    return int(min(6 << 30, memory // 4))


class LlamaCppEngine:
    """One loaded model, shared by every copy of the LM that uses it; calls are serialised.

    llama.cpp returns log-probabilities only from a context that keeps the logits of every
    position (n_ctx x vocabulary floats), so requests that ask for them go to a second,
    smaller context over the same memory-mapped weights (``score_ctx`` tokens).
    """

    def __init__(self, model_path: str | Path, n_ctx: int = 8192, n_threads: int | None = None,
                 n_gpu_layers: int = -1, seed: int = 0, score_ctx: int = 2048,
                 prefix_cache_bytes: int | None = None, reuse_context: bool = True,
                 cpu_turns: bool | None = None) -> None:
        self.model_path = str(model_path)
        n_threads = n_threads or os.cpu_count() or 1
        self.n_ctx, self.n_threads, self.n_gpu_layers, self.seed = n_ctx, n_threads, n_gpu_layers, seed
        self.score_ctx = score_ctx
        # KV states kept by prompt prefix (shared demonstrations); None: the default for this machine's memory
        self.prefix_cache_bytes = default_prefix_cache_bytes() if prefix_cache_bytes is None else prefix_cache_bytes
        self.reuse_context = reuse_context  # False: every call evaluates its whole prompt (benchmarks' baseline)
        self._lock = threading.Lock()
        # calls of every hopkit process on this machine take turns on its cores (hopkit/lm/cpu_turns.py); None: unless
        # HOPKIT_CPU_TURNS=0
        self.turns = CpuTurns() if (turns_wanted() if cpu_turns is None else cpu_turns) else None
        self._contexts: dict[bool, Any] = {}
        self.evaluated_tokens = 0  # prompt and generated tokens llama.cpp actually evaluated (a reused prefix is not)
        # the prompt phase of each call: its first llama.cpp evaluation (what the prefix cache did not cover)
        self.prompt_eval_tokens = 0
        self.prompt_eval_seconds = 0.0
        self._prompt_pending = False

    def load(self) -> None:
        """Load the generation context now, so a bad model file fails before any question runs."""
        with self._lock:
            self._model()

    def _model(self, scoring: bool = False) -> Any:
        if scoring not in self._contexts:
            try:
                from llama_cpp import Llama
            except ImportError as error:
                raise MissingArtifactError(
                    "the offline LM needs llama-cpp-python: pip install 'hopkit[local]'") from error
            refuse_foreign_build()
            try:
                self._contexts[scoring] = Llama(
                    model_path=self.model_path, n_ctx=self.score_ctx if scoring else self.n_ctx,
                    n_threads=self.n_threads, n_gpu_layers=self.n_gpu_layers, seed=self.seed,
                    logits_all=scoring, verbose=False)
                if not scoring and self.prefix_cache_bytes > 0:
                    from hopkit.lm.prefix_cache import BoundedRAMCache

                    self._contexts[scoring].set_cache(BoundedRAMCache(capacity_bytes=self.prefix_cache_bytes))
                self._count_evaluated(self._contexts[scoring])
            except (ValueError, RuntimeError) as error:
                raise MissingArtifactError(
                    f"llama.cpp could not load {self.model_path} ({error}); the file is not a valid GGUF model: "
                    "fetch it again with `hopkit models fetch`") from None
        return self._contexts[scoring]

    def _count_evaluated(self, llama: Any) -> None:
        evaluate = llama.eval

        def counted(tokens: Any) -> Any:
            self.evaluated_tokens += len(tokens)
            if not self._prompt_pending:
                return evaluate(tokens)
            self._prompt_pending = False
            start = time.perf_counter()
            try:
                return evaluate(tokens)
            finally:
                self.prompt_eval_seconds += time.perf_counter() - start
                self.prompt_eval_tokens += len(tokens)

        llama.eval = counted

    def complete(self, request: Any) -> Response:
        messages = []
        system = _system_text(request.system)
        if system:
            messages.append({"role": "system", "content": system})
        messages.extend({"role": m.role, "content": m.text or ""} for m in request.messages)
        config = request.config
        kwargs: dict[str, Any] = {
            "messages": messages,
            "temperature": 0.0 if config.temperature is None else config.temperature,
            "max_tokens": config.max_tokens or 512,
            "stop": list(config.stop) or None,
            "seed": config.seed if config.seed is not None else self.seed,
        }
        if config.top_p is not None:
            kwargs["top_p"] = config.top_p
        if config.logprobs is not None:
            kwargs.update(logprobs=True, top_logprobs=config.logprobs)
        with self._lock:
            llama = self._model(scoring=config.logprobs is not None)
            if not self.reuse_context:
                llama.reset()  # forget the previous prompt, so no prefix of it is reused
            self._prompt_pending = True
            with self.turns.turn() if self.turns else nullcontext():
                raw = llama.create_chat_completion(**kwargs)
        choice = raw["choices"][0]
        usage = raw.get("usage") or {}
        return Response(
            id=raw.get("id"), model=Path(self.model_path).name,
            message=Message.assistant([TextPart(choice["message"].get("content") or "")]),
            finish_reason="length" if choice.get("finish_reason") == "length" else "stop",
            usage=Usage(input_tokens=usage.get("prompt_tokens"), output_tokens=usage.get("completion_tokens")),
            logprobs=_logprobs(choice.get("logprobs")) if config.logprobs is not None else None,
        )

    def stream(self, request: Any) -> Any:
        return response_to_events(self.complete(request))

    def close(self) -> None:
        pass

    def __deepcopy__(self, memo: dict) -> LlamaCppEngine:
        return self  # a loaded model is shared, never copied

    def dump_state(self) -> dict:
        return {"model_path": self.model_path, "n_ctx": self.n_ctx, "n_threads": self.n_threads,
                "n_gpu_layers": self.n_gpu_layers, "seed": self.seed, "score_ctx": self.score_ctx,
                "prefix_cache_bytes": self.prefix_cache_bytes, "reuse_context": self.reuse_context,
                "cpu_turns": self.turns is not None}

    @classmethod
    def load_state(cls, state: dict) -> LlamaCppEngine:
        return cls(**state)


def _logprobs(raw: Any) -> tuple[TokenLogprob, ...] | None:
    if not raw or not raw.get("content"):
        return None
    return tuple(
        TokenLogprob(token=item["token"], logprob=float(item["logprob"]),
                     top=tuple(TopLogprob(token=t["token"], logprob=float(t["logprob"]))
                               for t in item.get("top_logprobs") or []))
        for item in raw["content"]
    )
