"""Building the LM a user names: ``local:<pack or GGUF path>`` or any ``dspy.LM`` model string."""

from __future__ import annotations

import os
from dataclasses import dataclass

import dspy

from hopkit.errors import LMUnavailableError
from hopkit.lm.accounted import AccountedLM
from hopkit.lm.llama_engine import LlamaCppEngine
from hopkit.lm.model_packs import PACKS, resolve_model_file, verify_cached

DEFAULT_LM = "local:qwen1.5b"


@dataclass(frozen=True)
class LMSpec:
    """What the CLI's ``--lm``, ``--api-base``, ``--api-key`` say, plus generation settings."""

    model: str = DEFAULT_LM
    api_base: str | None = None
    api_key: str | None = None
    max_tokens: int = 512
    temperature: float = 0.0
    cache: bool = True
    # IRCoT's paper budget puts 6,000 wordpieces of demonstrations before up to 15 whole paragraphs (Qwen2.5 reads
    # 32k); the KV cache of a 1.5B model at this size is a few hundred MB
    n_ctx: int = 16384
    timeout: float = 120.0  # seconds a server may take for one call before it counts as failed
    # local packs: evaluate every prompt whole, reusing no earlier call's prefix KV. dspy's cache keys do not hold it:
    # a caller that must not read prefix-reusing answers keeps a cache of its own
    whole_prompts: bool = False

    @property
    def is_local(self) -> bool:
        return self.model.startswith("local:")


def make_lm(spec: LMSpec) -> dspy.LM:
    if spec.is_local:
        target = spec.model.removeprefix("local:")
        path = resolve_model_file(target)
        if target in PACKS:  # a user's own GGUF file has no pinned hash
            verify_cached(path, PACKS[target].sha256)
        # prefix reuse is not bit-exact (a shared prefix's KV computed after other calls can flip a close answer):
        # spec.whole_prompts turns it off for a caller that needs an answer independent of call order. Benchmarks
        # switch it by environment: HOPKIT_PREFIX_CACHE_MB=0 turns the prefix KV cache off; HOPKIT_REUSE_CONTEXT=0
        # also stops llama.cpp from reusing the previous call's prefix
        cache_mb = "0" if spec.whole_prompts else os.environ.get("HOPKIT_PREFIX_CACHE_MB")
        reuse = not spec.whole_prompts and os.environ.get("HOPKIT_REUSE_CONTEXT") != "0"
        # HOPKIT_LM_THREADS: llama.cpp's threads (default: every core), e.g. to give side-by-side processes cores of
        # their own together with HOPKIT_CPU_TURNS=0 (hopkit/lm/cpu_turns.py)
        engine = LlamaCppEngine(path, n_ctx=spec.n_ctx, n_threads=lm_threads(), reuse_context=reuse,
                                prefix_cache_bytes=int(float(cache_mb) * 2**20) if cache_mb else None)
        engine.load()
        return AccountedLM(f"local/{path.stem}", engine=engine, endpoint=f"local:{path}", max_tokens=spec.max_tokens,
                           temperature=spec.temperature, cache=spec.cache, num_retries=0)
    if "/" not in spec.model:
        raise LMUnavailableError(
            f"--lm {spec.model!r} is not a model string: use local:<pack or .gguf path> or provider/model, "
            "e.g. openai/Qwen2.5-7B-Instruct --api-base http://127.0.0.1:8000/v1"
        )
    return AccountedLM(spec.model, api_base=spec.api_base, api_key=spec.api_key or ("none" if spec.api_base else None),
                       max_tokens=spec.max_tokens, temperature=spec.temperature, cache=spec.cache, num_retries=1,
                       timeout=spec.timeout)


def lm_threads() -> int | None:
    """``HOPKIT_LM_THREADS`` as a thread count; None when unset."""
    value = os.environ.get("HOPKIT_LM_THREADS", "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise LMUnavailableError(f"HOPKIT_LM_THREADS={value!r} is not a thread count: give a whole number >= 1")
    return int(value)


def check_reachable(lm: dspy.LM) -> None:
    """One tiny call, so an unreachable endpoint fails once, clearly, before a long run starts. It is never answered
    from the cache: a cached reply would vouch for a server that is gone."""
    try:
        lm("Reply with the word ok.", max_tokens=2, cache=False)
    except Exception as error:
        reason = str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
        raise LMUnavailableError(
            f"the LM {lm.model!r} did not answer ({type(error).__name__}: {reason}); check --api-base, the server, "
            "and --api-key"
        ) from None


def use_lm(spec: LMSpec) -> dspy.LM:
    """The LM the spec names, checked reachable (a server) and configured for DSPy."""
    lm = make_lm(spec)
    if not spec.is_local:
        check_reachable(lm)
    dspy.configure(lm=lm)
    return lm

