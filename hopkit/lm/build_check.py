"""What the installed llama.cpp build does on this CPU: the instruction sets it was compiled for against those the
CPU has, and its prompt and generation speed (``hopkit bench-lm``).

A portable build (``GGML_NATIVE=OFF`` alone) runs AVX2 code on a CPU with AVX-512 and VNNI; a build for the CPU
uses them, and such a wheel carried to an older CPU dies with an illegal instruction. ``scripts/install.sh`` therefore
builds for the machine it runs on (scripts/llama_cmake_args.sh) and never takes a cached wheel, and
``missing_on_this_cpu`` turns a wheel that travelled into one line instead of a crash (docs/results.md has the
measured difference).
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

# llama.cpp's name for an instruction set in its system info -> the flag /proc/cpuinfo gives the CPU for it
CPU_FLAGS = {"AVX": "avx", "AVX2": "avx2", "AVX_VNNI": "avx_vnni", "F16C": "f16c", "FMA": "fma", "BMI2": "bmi2",
             "AVX512": "avx512f", "AVX512_VBMI": "avx512vbmi", "AVX512_VNNI": "avx512_vnni",
             "AVX512_BF16": "avx512_bf16", "AMX_INT8": "amx_int8"}
# left off on purpose by scripts/llama_cmake_args.sh: a virtual machine can list AMX and trap on its first tile
# instruction, and the Q4_K models hopkit runs do not use it
LEFT_OFF = {"AMX_INT8"}


def build_features(system_info: str) -> set[str]:
    """The instruction sets a build was compiled for, from ``llama_print_system_info`` ("AVX2 = 1 | ...")."""
    return {name for name, on in re.findall(r"([A-Z0-9_]+) = (\d)", system_info) if on == "1"}


def cpu_flags(cpuinfo: str | None = None) -> set[str] | None:
    """The CPU's flags (Linux); None where /proc/cpuinfo cannot be read."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return None
    match = re.search(r"^flags\s*:\s*(.*)$", cpuinfo, re.MULTILINE)
    return set(match.group(1).split()) if match else None


def missing_on_this_cpu(features: set[str], flags: set[str] | None) -> list[str]:
    """Instruction sets the build uses that the CPU lacks (a wheel built elsewhere)."""
    if flags is None:
        return []
    return sorted(name for name in features if name in CPU_FLAGS and CPU_FLAGS[name] not in flags)


def unused_on_this_cpu(features: set[str], flags: set[str] | None) -> list[str]:
    """Instruction sets the CPU has that the build leaves unused (a portable build on a newer CPU), AMX aside."""
    if flags is None:
        return []
    return sorted(name for name, flag in CPU_FLAGS.items()
                  if flag in flags and name not in features and name not in LEFT_OFF)


def system_info() -> str:
    import llama_cpp

    info = llama_cpp.llama_print_system_info()
    return info.decode() if isinstance(info, bytes) else str(info)


@dataclass
class BuildBench:
    system_info: str
    unused: list[str]
    missing: list[str]
    prompt_tokens: int
    prompt_tok_s: float
    generated_tokens: int
    generation_tok_s: float
    threads: int
    repeats: int
    llama_cpp_version: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def bench_build(model_path: Path, prompt_tokens: int = 1024, generated: int = 64, repeats: int = 2,
                threads: int | None = None, say=print) -> BuildBench:
    """Prompt evaluation of ``prompt_tokens`` from an empty context, and ``generated`` single-token decode steps
    after it, each the median of ``repeats`` runs, for the build in use."""
    import os
    import statistics

    import llama_cpp

    threads = threads or os.cpu_count() or 1
    llama = llama_cpp.Llama(model_path=str(model_path), n_ctx=prompt_tokens + generated + 16, n_threads=threads,
                            verbose=False)
    text = " ".join(f"Paragraph {i}: the river town of Elmor held its market on the {i}th day." for i in range(400))
    tokens = llama.tokenize(text.encode())[:prompt_tokens]
    prompt_rates, decode_rates = [], []
    for repeat in range(repeats):
        llama.reset()
        start = time.perf_counter()
        llama.eval(tokens)
        prompt_rates.append(len(tokens) / (time.perf_counter() - start))
        start = time.perf_counter()
        for _ in range(generated):
            llama.eval([tokens[-1]])
        decode_rates.append(generated / (time.perf_counter() - start))
        say(f"run {repeat + 1}/{repeats}: prompt {prompt_rates[-1]:.1f} tok/s, generation {decode_rates[-1]:.1f} tok/s")
    info = system_info()
    features, flags = build_features(info), cpu_flags()
    return BuildBench(info.strip(), unused_on_this_cpu(features, flags), missing_on_this_cpu(features, flags),
                      len(tokens), round(statistics.median(prompt_rates), 1), generated,
                      round(statistics.median(decode_rates), 1), threads, repeats, llama_cpp.__version__)


def format_bench(result: BuildBench) -> str:
    lines = [f"llama-cpp-python {result.llama_cpp_version}, {result.threads} threads",
             f"build: {result.system_info}",
             f"prompt: {result.prompt_tok_s:.1f} tok/s ({result.prompt_tokens} tokens from an empty context)",
             f"generation: {result.generation_tok_s:.1f} tok/s ({result.generated_tokens} decode steps)"]
    if result.unused:
        lines.append(f"this CPU has {', '.join(result.unused)}, which the build does not use: rebuild for it with "
                     "bash scripts/install.sh --rebuild-lm")
    if result.missing:
        lines.append(f"the build uses {', '.join(result.missing)}, which this CPU lacks: rebuild it here")
    return "\n".join(lines)
