"""make_lm's switches for a local pack, read without loading a model (the engine is recorded, not built)."""

from pathlib import Path

import pytest

from hopkit.errors import LMUnavailableError
from hopkit.lm import factory
from hopkit.lm.factory import LMSpec, make_lm


class RecordedEngine:
    def __init__(self, path: Path, n_ctx: int, reuse_context: bool = True, prefix_cache_bytes: int | None = None,
                 n_threads: int | None = None) -> None:
        self.path, self.n_ctx, self.n_threads = path, n_ctx, n_threads
        prefix_cache_bytes = 2 << 30 if prefix_cache_bytes is None else prefix_cache_bytes
        self.reuse_context, self.prefix_cache_bytes = reuse_context, prefix_cache_bytes

    def load(self) -> None:
        pass

    def complete(self, request):  # what dspy.LM asks of an engine object; never called here
        raise AssertionError("no call is made")


@pytest.fixture
def recorded(monkeypatch, tmp_path: Path):
    gguf = tmp_path / "own.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setattr(factory, "LlamaCppEngine", RecordedEngine)
    monkeypatch.delenv("HOPKIT_PREFIX_CACHE_MB", raising=False)
    monkeypatch.delenv("HOPKIT_REUSE_CONTEXT", raising=False)
    return f"local:{gguf}"


def test_a_local_pack_reuses_prompt_prefixes_by_default(recorded):
    engine = make_lm(LMSpec(model=recorded, cache=False)).engine
    assert engine.reuse_context is True and engine.prefix_cache_bytes == 2 << 30


def test_whole_prompts_turns_both_kinds_of_prefix_reuse_off_whatever_the_environment_says(recorded, monkeypatch):
    monkeypatch.setenv("HOPKIT_PREFIX_CACHE_MB", "512")
    monkeypatch.setenv("HOPKIT_REUSE_CONTEXT", "1")
    engine = make_lm(LMSpec(model=recorded, cache=False, whole_prompts=True)).engine
    assert engine.reuse_context is False and engine.prefix_cache_bytes == 0


def test_the_benchmarks_environment_switches_still_apply_without_the_field(recorded, monkeypatch):
    monkeypatch.setenv("HOPKIT_PREFIX_CACHE_MB", "64")
    monkeypatch.setenv("HOPKIT_REUSE_CONTEXT", "0")
    engine = make_lm(LMSpec(model=recorded, cache=False)).engine
    assert engine.reuse_context is False and engine.prefix_cache_bytes == 64 * 2**20


def test_the_thread_count_comes_from_the_environment(recorded, monkeypatch):
    assert make_lm(LMSpec(model=recorded, cache=False)).engine.n_threads is None  # the engine's own: every core
    monkeypatch.setenv("HOPKIT_LM_THREADS", "1")
    assert make_lm(LMSpec(model=recorded, cache=False)).engine.n_threads == 1
    monkeypatch.setenv("HOPKIT_LM_THREADS", "two")
    with pytest.raises(LMUnavailableError, match="HOPKIT_LM_THREADS='two' is not a thread count"):
        make_lm(LMSpec(model=recorded, cache=False))
