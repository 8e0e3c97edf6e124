#!/usr/bin/env bash
# Issue 23's runs, one LM job at a time (two on two cores only slow each other); each resumes from its log.
#   nohup bash scripts/tasks_queue.sh > /dev/null 2>&1 &
# Every bundled task's dev split, the 1.5B pack, fine-tuned ColBERT: NoR, OneR and SearChain on 30 questions,
# IRCoT and ToR on 20, one task at a time; SearChain's alpha sweep on the long-form task (20 questions).
# Setup first: scripts/install.sh, hopkit models fetch qwen1.5b, hopkit data build, the fine-tuned ColBERT index.
set -u
cd "$(dirname "$0")/.."
PY=$PWD/.venv/bin/python
OUT=docs/runs/tasks
STATUS=$OUT/queue-status
mkdir -p "$OUT"
[ -x "$PY" ] || { echo "no $PY: run scripts/install.sh first" >&2; exit 1; }
LM=(--retriever colbert --lm local:qwen1.5b --quiet)
eval_run() {  # task, method, n
    local task=$1 method=$2 n=$3 name="$1-$2"
    echo "start $name $(date +%T) $(git rev-parse --short HEAD)" >> "$STATUS"
    "$PY" -m hopkit.cli.main eval --method "$method" --dataset "bundled:$task:dev" --n "$n" "${LM[@]}" \
        --out "$OUT/$name.jsonl" >> "$OUT/$name.out" 2>&1
    echo "done $name rc=$? $(date +%T)" >> "$STATUS"
}
alpha_sweep() {  # SearChain's alpha on the long-form task; the default's calls come from the eval above
    echo "start alpha-sweep $(date +%T) $(git rev-parse --short HEAD)" >> "$STATUS"
    "$PY" -m hopkit.cli.main ablate --method searchain --dataset bundled:long-form:dev --n 20 "${LM[@]}" \
        --variants "alpha 0.35 (default):alpha=0.35;alpha 0.2:alpha=0.2;alpha 0.3:alpha=0.3;alpha 0.4:alpha=0.4;alpha 0.45:alpha=0.45;alpha 0.5:alpha=0.5;alpha 0 (never fires):alpha=0.0" \
        --out "$OUT/alpha-sweep-long-form" >> "$OUT/alpha-sweep.out" 2>&1
    echo "done alpha-sweep rc=$? $(date +%T)" >> "$STATUS"
}
# One task at a time, so that each session ends with whole tasks: fact check first (its rows are furthest along),
# then long form (IRCoT reruns with the task's own demonstrations), then yes/no and slot filling
for task in fact-check long-form yes-no slot-filling; do
    eval_run "$task" nor 30
    eval_run "$task" oner 30
    eval_run "$task" searchain 30
    [ "$task" = long-form ] && alpha_sweep
    eval_run "$task" ircot 20
    eval_run "$task" tor 20
done
