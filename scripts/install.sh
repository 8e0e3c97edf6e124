#!/usr/bin/env bash
# Create .venv and install hopkit with the offline LM and test extras, CPU-only torch first.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# The CPU build of torch first: neither dspy nor colbert-ai declares torch, and an unpinned
# torch would pull several GB of CUDA wheels. On a GPU machine install the torch you need instead.
.venv/bin/python -c "import torch" 2>/dev/null || .venv/bin/python -m pip install --quiet "torch==2.13.0"
# llama-cpp-python builds from source (about 6 minutes on 2 cores; pip caches the wheel afterwards).
CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" .venv/bin/python -m pip install --quiet -e ".[local,dev,postgres]"
echo "hopkit installed in .venv"
