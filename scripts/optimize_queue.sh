#!/usr/bin/env bash
# The optimizer runs behind docs/results.md (issue 7), in order. Every command resumes: a study
# continues from its SQLite storage, each setting's finished questions are reused, and test runs
# skip answered questions; rerunning this script after an interruption picks up where it stopped. On a fresh
# machine, `python scripts/restore_studies.py` first puts the committed snapshots back under runs/optimize/.
set -u
cd "$(dirname "$0")/.."
HOPKIT=${HOPKIT:-.venv/bin/hopkit}
COMMON=(--dataset bundled --metric f1 --trials 10 --n-dev 20 --n-train 20 --test bundled:test --n-test 20
        --retriever colbert --lm local:qwen1.5b --quiet)
LOGS=runs/optimize-logs
mkdir -p "$LOGS"
study() {  # name, then hopkit optimize arguments
    local name=$1; shift
    echo "start $name $(date +%T) $(git rev-parse --short HEAD)" >> "$LOGS/status"
    "$HOPKIT" optimize "$@" "${COMMON[@]}" >> "$LOGS/$name.log" 2>&1
    echo "done $name rc=$? $(date +%T)" >> "$LOGS/status"
}
study searchain-pareto --method searchain --demos none --objectives f1,lm_calls
study ircot-none       --method ircot     --demos none
study tor-none         --method tor       --demos none
study searchain-bootstrap --method searchain --demos bootstrap
study tor-bootstrap    --method tor       --demos bootstrap
study ircot-bootstrap  --method ircot     --demos bootstrap
