#!/usr/bin/env bash
# Issue 21's runs, one at a time (two LM processes on two cores only slow each other); each resumes from its log.
#   bash scripts/tor_queue.sh NEW_WORKTREE     # a worktree of the commit under test, its docs/runs/dev100 linked here
# "as on main before issue 21" runs inside a worktree of 3c658a9 (../ircot-main, made if missing).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
NEW=${1:?a worktree of the commit under test}
PY=$ROOT/.venv/bin/python
DEV=ircot:../shared/data/hotpotqa/dev100.jsonl
OUT=$ROOT/docs/runs/dev100
STATUS=$OUT/tor-queue-status
[ -d ../ircot-main ] || git worktree add ../ircot-main 3c658a9
run() {  # name, worktree, then the eval flags
    local name=$1 tree=$2; shift 2
    echo "start $name $(date +%T) $(git -C "$tree" rev-parse --short HEAD)" >> "$STATUS"
    env -C "$tree" "$PY" -m hopkit.cli.main eval "$@" --quiet >> "$OUT/$name.out" 2>&1
    echo "done $name rc=$? $(date +%T)" >> "$STATUS"
}
LM=(--retriever bm25 --lm local:qwen1.5b)
run tor-checked "$NEW" --method tor --dataset "$DEV" --n 50 "${LM[@]}" --out "$OUT/tor-checked__local-qwen1.5b.jsonl"
run regression-tor-bundled-dev "$NEW" --method tor --dataset bundled:dev --n 15 --retriever colbert \
    --lm local:qwen1.5b --out "$ROOT/docs/runs/regression-tor-bundled-dev-colbert.jsonl"
run tor-main-3c658a9 ../ircot-main --method tor --dataset "$DEV" --n 50 "${LM[@]}" \
    --out "$OUT/tor-main-3c658a9__local-qwen1.5b.jsonl"
run cor-checked "$NEW" --method cor --dataset "$DEV" --n 50 "${LM[@]}" --out "$OUT/cor-checked__local-qwen1.5b.jsonl"
run cor-main-3c658a9 ../ircot-main --method cor --dataset "$DEV" --n 50 "${LM[@]}" \
    --out "$OUT/cor-main-3c658a9__local-qwen1.5b.jsonl"
