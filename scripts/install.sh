#!/usr/bin/env bash
# Create .venv and install hopkit with the offline LM and test extras, CPU-only torch first.
#   bash scripts/install.sh               install (llama.cpp built for this machine's CPU)
#   bash scripts/install.sh --rebuild-lm  rebuild llama-cpp-python for this CPU (after CMAKE_ARGS changed, or a
#                                         venv copied from another machine)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# The CPU build of torch first: neither dspy nor colbert-ai declares torch, and an unpinned
# torch would pull several GB of CUDA wheels. On a GPU machine install the torch you need instead.
.venv/bin/python -c "import torch" 2>/dev/null || .venv/bin/python -m pip install --quiet "torch==2.13.0"
# llama-cpp-python builds from source (about 7 minutes on 2 cores) for the CPU it is built on: every instruction set
# /proc/cpuinfo lists, AMX aside (scripts/llama_cmake_args.sh). On a CPU with AVX-512 that is faster than the portable
# AVX2 build (docs/results.md, `hopkit bench-lm`). A wheel built so is only safe on such a CPU, so pip neither takes a
# cached wheel nor keeps this one, and hopkit refuses in one line a build that uses instructions the CPU lacks.
# CMAKE_ARGS=-DGGML_NATIVE=OFF builds the portable one.
LLAMA=$(sed -n 's/.*"\(llama-cpp-python[^"]*\)".*/\1/p' pyproject.toml | head -1)
if [ "${1:-}" = --rebuild-lm ] || ! .venv/bin/python -c "import llama_cpp" 2>/dev/null; then
    CMAKE_ARGS="${CMAKE_ARGS:-$(bash scripts/llama_cmake_args.sh)}" .venv/bin/python -m pip install --quiet --no-cache-dir \
        --force-reinstall --no-deps "${LLAMA:-llama-cpp-python}"
    .venv/bin/python -m pip install --quiet "${LLAMA:-llama-cpp-python}"  # its own dependencies, from the index
fi
.venv/bin/python -m pip install --quiet -e ".[local,dev,postgres]"
echo "hopkit installed in .venv"
