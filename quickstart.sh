#!/usr/bin/env bash
# Quick start: install, fetch the offline LM, and run the main job on the bundled benchmark.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/install.sh
.venv/bin/hopkit models fetch "${HOPKIT_PACK:-qwen1.5b}"
.venv/bin/hopkit data build
.venv/bin/hopkit demo --lm "local:${HOPKIT_PACK:-qwen1.5b}" "$@"
