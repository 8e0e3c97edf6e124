#!/usr/bin/env bash
# Issue 38's runs, one LM job at a time (two on two cores only slow each other); each resumes from its log.
#   git worktree add ../hopkit-pinned HEAD      # the code every run of the queue uses, fixed at one commit
#   nohup bash scripts/profiles_queue.sh ../hopkit-pinned > /dev/null 2>&1 &
# HotpotQA dev100, questions 51-80 (never read while the additions were designed on questions 1-50), BM25, the
# 1.5B pack, zero-shot (--demos-from auto is none for real data): paper against hopkit for IRCoT, SearChain and
# ToR; then each addition's ablation (hopkit ablate) on questions 51-70, whose full-method and paper-profile rows
# replay the evals' LM calls from the cache.
# Setup first: scripts/install.sh, hopkit models fetch qwen1.5b, hopkit index --backend bm25 --dataset $DATA.
set -u
cd "$(dirname "$0")/.."
MAIN=$PWD
CODE=$(cd "${1:-.}" && pwd)
PY=$MAIN/.venv/bin/python
OUT=$MAIN/docs/runs/profiles
STATUS=$OUT/queue-status
DATA=ircot:$(cd "$MAIN/../shared/data/hotpotqa" && pwd)/dev100.jsonl
mkdir -p "$OUT"
[ -x "$PY" ] || { echo "no $PY: run scripts/install.sh first" >&2; exit 1; }
LM=(--dataset "$DATA" --retriever bm25 --lm local:qwen1.5b --quiet)
eval_run() {  # method, profile
    local name="$1-$2"
    echo "start $name $(date +%T) $(git -C "$CODE" rev-parse --short HEAD)" >> "$STATUS"
    env -C "$CODE" PYTHONPATH="$CODE" "$PY" -m hopkit.cli.main eval --method "$1" --profile "$2" \
        --questions 51-80 "${LM[@]}" --out "$OUT/$name.jsonl" >> "$OUT/$name.out" 2>&1
    echo "done $name rc=$? $(date +%T)" >> "$STATUS"
}
ablate_run() {  # method, variants (comma-separated declared names)
    echo "start ablate-$1 $(date +%T) $(git -C "$CODE" rev-parse --short HEAD)" >> "$STATUS"
    env -C "$CODE" PYTHONPATH="$CODE" "$PY" -m hopkit.cli.main ablate --method "$1" --questions 51-70 \
        --only "$2" "${LM[@]}" --out "$OUT/ablate-$1" >> "$OUT/ablate-$1.out" 2>&1
    echo "done ablate-$1 rc=$? $(date +%T)" >> "$STATUS"
}
# IRCoT and SearChain first, each with its ablations (their full-method rows replay the evals' cache), then ToR
eval_run ircot paper
eval_run ircot hopkit
eval_run searchain paper
eval_run searchain hopkit
ablate_run ircot "w/o yes_no_check,w/o restatement,w/o option_check,w/o answer_as_asked,step_tokens=0,paragraph_words=0,paper profile"
ablate_run searchain "w/o yes_no_check,w/o restatement,w/o option_check,w/o answer_as_asked,w/o short_form,answer_from=path,duplicates=skip,w/o decompose_retry,no_answer=feedback,plan_tokens=0,paragraph_words=0,paper profile"
eval_run tor hopkit
eval_run tor paper
ablate_run tor "w/o yes_no_check,w/o restatement,w/o option_check,w/o check_accept,w/o check_reject,w/o query_fallback,mpc_review=plain,budget=0,paragraph_words=0,paper profile"
