"""The llama.cpp build against the CPU: instruction sets a portable build leaves unused are named, and a build
that needs instructions the CPU lacks (a native wheel from another machine) is refused in one line."""

import pytest

from hopkit.errors import MissingArtifactError
from hopkit.lm import build_check
from hopkit.lm.build_check import (
    BuildBench,
    build_features,
    cpu_flags,
    format_bench,
    missing_on_this_cpu,
    unused_on_this_cpu,
)

PORTABLE = "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | LLAMAFILE = 1 | "
NATIVE = PORTABLE + "AVX512 = 1 | AVX512_VBMI = 1 | AVX512_VNNI = 1 | "
AVX512_CPU = ("processor : 0\nflags\t\t: fpu sse avx avx2 fma f16c bmi2 avx512f avx512vbmi avx512_vnni avx_vnni "
              "amx_int8\n")
AVX2_CPU = "processor : 0\nflags\t\t: fpu sse avx avx2 fma f16c bmi2\n"


def test_a_portable_build_on_an_avx512_cpu_names_what_it_leaves_unused():
    features, flags = build_features(PORTABLE), cpu_flags(AVX512_CPU)
    assert {"AVX2", "FMA"} <= features and "AVX512" not in features
    assert unused_on_this_cpu(features, flags) == ["AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX_VNNI"]
    assert missing_on_this_cpu(features, flags) == []
    assert unused_on_this_cpu(build_features(NATIVE), flags) == ["AVX_VNNI"]  # AMX is left off on purpose


def test_a_native_build_on_an_older_cpu_is_refused_before_the_model_loads(monkeypatch, tmp_path):
    from hopkit.lm.llama_engine import LlamaCppEngine

    assert missing_on_this_cpu(build_features(NATIVE), cpu_flags(AVX2_CPU)) == ["AVX512", "AVX512_VBMI",
                                                                                  "AVX512_VNNI"]
    assert missing_on_this_cpu(build_features(NATIVE), None) == []  # no /proc/cpuinfo: nothing to hold against
    pytest.importorskip("llama_cpp")
    monkeypatch.setattr(build_check, "system_info", lambda: NATIVE)
    monkeypatch.setattr(build_check, "cpu_flags", lambda: cpu_flags(AVX2_CPU))
    with pytest.raises(MissingArtifactError, match=r"built for a CPU with AVX512, .*install.sh --rebuild-lm"):
        LlamaCppEngine(tmp_path / "model.gguf").load()


def test_the_benchmark_report_says_how_to_rebuild_a_build_that_leaves_the_cpu_unused():
    result = BuildBench(PORTABLE, ["AVX512"], [], 1024, 64.0, 64, 22.0, 2, 2, "0.3.36")
    text = format_bench(result)
    assert "prompt: 64.0 tok/s (1024 tokens" in text and "generation: 22.0 tok/s" in text
    assert "does not use: rebuild for it with bash scripts/install.sh --rebuild-lm" in text
