#!/usr/bin/env bash
# Issue 24's benchmarks, one at a time on a machine with nothing else running (they time things):
#   nohup bash scripts/scale_queue.sh > /dev/null 2>&1 &
# A step that finished (its "done NAME rc=0" line in docs/runs/scale/queue-status) is not run again; bench-retrieval
# reuses an index already built, the prefix-reuse bench skips modes already in its JSON.
# Setup first: scripts/install.sh, the server extra (pip install -e '.[server]'), hopkit models fetch qwen1.5b and
# qwen0.5b, hopkit data build, the fine-tuned ColBERT checkpoint (README), the BM25 index of dev100.
set -u
cd "$(dirname "$0")/.."
PY=$PWD/.venv/bin/python
OUT=docs/runs/scale
STATUS=$OUT/queue-status
CHECKPOINT=${HOPKIT_CHECKPOINT:-$HOME/.cache/hopkit/checkpoints/colbert-minilm-ft}
DEV100=ircot:../shared/data/hotpotqa/dev100.jsonl
mkdir -p "$OUT"
[ -x "$PY" ] || { echo "no $PY: run scripts/install.sh first" >&2; exit 1; }
step() {  # name, command...; SCALE_STEPS="bm25 colbert-5k" runs only the steps it names
    local name=$1; shift
    [ -n "${SCALE_STEPS:-}" ] && [[ " $SCALE_STEPS " != *" $name "* ]] && return
    grep -q "^done $name rc=0" "$STATUS" 2>/dev/null && return
    echo "start $name $(date +%T) $(git rev-parse --short HEAD)" >> "$STATUS"
    "$@" >> "$OUT/$name.out" 2>&1
    echo "done $name rc=$? $(date +%T)" >> "$STATUS"
}
# colbert-ai's defaults for k = 15 are ncells=2, centroid_score_threshold=0.45, ndocs=1024; the last point probes
# 32 cells with no centroid pruning and re-ranks 8192 documents: the near-exhaustive reference for recall
GRID='ncells=1,2,4;centroid_score_threshold=0.4,0.5;ndocs=256,1024|ncells=32;centroid_score_threshold=0;ndocs=8192'
step bm25 "$PY" -m hopkit.cli.main bench-retrieval --sizes 5000,50000,200000 --backends bm25 --n 100 \
    --out "$OUT/bm25-idle.json"   # the committed bm25.json ran beside an LM evaluation
step colbert-5k "$PY" -m hopkit.cli.main bench-retrieval --sizes 5000 --backends colbert --checkpoint "$CHECKPOINT" \
    --n 100 --plaid-grid "$GRID" --out "$OUT/colbert-5k-grid.json"
# the 50k index lives in ~/.cache: it is built and searched in one session, so it comes before the LM benchmarks
step colbert-50k "$PY" -m hopkit.cli.main bench-retrieval --sizes 50000 --backends colbert --checkpoint "$CHECKPOINT" \
    --n 100 --plaid-grid "$GRID" --out "$OUT/colbert-50k-grid.json"
step engine-vs-plain "$PY" scripts/lm_engine_vs_plain.py --dataset "$DEV100" --prompts 3 --repeats 2
step server-throughput "$PY" scripts/server_throughput.py --pack qwen0.5b --n 10 --threads 1,2,4
step prefix-reuse "$PY" scripts/prefix_reuse_bench.py --dataset "$DEV100" --n 10 --out "$OUT/prefix-reuse.json"
