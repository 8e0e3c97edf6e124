#!/usr/bin/env bash
# hopkit's default IRCoT as a user offline gets it, on the reproduce study's test questions, one LM job at a time,
# each resumable from its log:
#   git worktree add --detach ../hopkit-offline-defaults COMMIT      # COMMIT: the one runs/status names
#   (nohup nice -n 19 bash experiments/offline-defaults/queue.sh ../hopkit-offline-defaults ../shared/data > /dev/null 2>&1 &)
# $1: the pinned checkout whose code answers; $2: the folder holding musique/test92.jsonl and 2wiki/hipporag/.
# Offline, `--retriever auto` finds no ColBERT index and `--demos-from auto` no stored train split, so the default is
# BM25 and zero-shot; the runs name both, so that a run online answers the same prompts.
# Outputs: runs/SET-ircot.jsonl (with .meta.json); status lines in runs/status.
set -u
cd "$(dirname "$0")/../.."
MAIN=$PWD
CODE=$(cd "${1:?the checkout to run}" && pwd)
DATA=$(cd "${2:?the data folder}" && pwd)
OUT=$MAIN/experiments/offline-defaults/runs
mkdir -p "$OUT"
hopkit() { env -C "$CODE" PYTHONPATH="$CODE" "$MAIN/.venv/bin/python" -m hopkit.cli.main "$@"; }
commit_logs() {
    git -C "$MAIN" add -A experiments/offline-defaults/runs 2>/dev/null
    git -C "$MAIN" diff --cached --quiet -- experiments/offline-defaults/runs 2>/dev/null ||
        git -C "$MAIN" commit -q -m "offline-defaults: logs" -- experiments/offline-defaults/runs > /dev/null 2>&1
}
( while sleep "${COMMIT_EVERY:-900}"; do commit_logs; done ) &
COMMITTER=$!
trap 'kill $COMMITTER 2>/dev/null; commit_logs' EXIT
run() {  # name, dataset spec, then eval's own flags
    local name=$1 spec=$2; shift 2
    grep -q "^done $name rc=0 " "$OUT/status" 2>/dev/null && return
    echo "start $name $(date +%F\ %T) $(git -C "$CODE" rev-parse --short HEAD)" >> "$OUT/status"
    hopkit eval --method ircot --dataset "$spec" --retriever bm25 --demos-from none --lm local:qwen1.5b --quiet \
        --out "$OUT/$name.jsonl" "$@" >> "$OUT/$name.log" 2>&1
    echo "done $name rc=$? $(date +%F\ %T)" >> "$OUT/status"
}
# the questions the reproduce study tests OneR and IRCoT on (experiments/reproduce/queue.sh's TEST)
run musique-ircot "musique:validation@$DATA/musique/test92.jsonl"
run 2wiki-ircot "qa:$DATA/2wiki/hipporag/questions500.jsonl@$DATA/2wiki/hipporag/corpus.jsonl" --questions 101-300
