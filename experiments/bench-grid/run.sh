#!/usr/bin/env bash
# The tuning-grid benchmark of issue 80: OneR's and IRCoT's MuSiQue grids on 5 tune questions, setting by setting
# and shared, with the paper's demonstrations and the offline 1.5B model. Resumable (finished modes are kept).
#   bash experiments/bench-grid/run.sh [DATA]   (DATA: the folder with musique/ and ircot-demos/, ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=$(realpath "${1:-../shared/data}")
HERE=experiments/bench-grid
for method in oner ircot; do
    .venv/bin/python -m hopkit bench-grid "$method" --dataset "musique:validation@$DATA/musique/dev100.jsonl" \
        --demos-from "ircot-demos:$DATA/ircot-demos/musique.txt" --n 5 --out "$HERE/$method-musique.json" \
        2>&1 | tee -a "$HERE/$method-musique.log"
done
