#!/usr/bin/env bash
# The papers' protocol at the papers' scale (issue 73): one LM job at a time, each resumable from its study folder.
#   git worktree add ../hopkit-reproduce HEAD
#   nohup bash experiments/reproduce/queue.sh ../hopkit-reproduce ../shared/data > /dev/null 2>&1 &
# $1: the checkout whose code starts each new study (a pinned worktree, so that commits to main do not change a running
#     study); a study folder named in runs/queue-pins runs at the commit it names there instead (a worktree of its own,
#     $1-COMMIT, added when missing), so that a study begun on older code finishes on it;
# $2: the folder holding hotpotqa/, musique/, 2wiki/hipporag/ and ircot-demos/ (see ../shared/README.md).
# Outputs: experiments/reproduce/runs/<method>-<dataset>/ (reproduce.json, tune-*/, test/); status in runs/queue-status.
set -u
cd "$(dirname "$0")/../.."
MAIN=$PWD
CODE=$(cd "${1:?the checkout to run}" && pwd)
DATA=$(cd "${2:?the data folder}" && pwd)
PY=$MAIN/.venv/bin/python
ROOT=$MAIN/experiments/reproduce/runs
STATUS=$ROOT/queue-status
mkdir -p "$ROOT"
HOTPOT="hotpotqa-distractor:validation@$DATA/hotpotqa/test500.jsonl"
WIKI="qa:$DATA/2wiki/hipporag/questions500.jsonl@$DATA/2wiki/hipporag/corpus.jsonl"
declare -A TUNE=([hotpotqa]="$HOTPOT[1-100]" [2wiki]="$WIKI[1-100]"
                 [musique]="musique:validation@$DATA/musique/dev100.jsonl")
# 2Wiki's OneR and IRCoT test on 101-300 (n = 200, issue 83), as its SearChain and ToR do
declare -A TEST=([hotpotqa]="$HOTPOT[101-500]" [2wiki]="$WIKI[101-300]"
                 [musique]="musique:validation@$DATA/musique/test92.jsonl")
declare -A SHORT_TEST=([hotpotqa]="$HOTPOT[101-300]" [2wiki]="$WIKI[101-300]" [musique]="${TEST[musique]}")
declare -A DEMOS=([hotpotqa]="ircot-demos:$DATA/ircot-demos/hotpotqa.txt"
                  [2wiki]="ircot-demos:$DATA/ircot-demos/2wikimultihopqa.txt"
                  [musique]="ircot-demos:$DATA/ircot-demos/musique.txt")
AT=$CODE  # the checkout the next command runs
hopkit() { env -C "$AT" PYTHONPATH="$AT" "$PY" -m hopkit.cli.main "$@"; }
# runs/queue-pins: "FOLDER COMMIT" lines; a study writing into FOLDER runs at COMMIT (its logs hold no run spec that
# newer code would resume them by); every other study runs at $1
code_for() {  # the checkout a study writing into folder $1 runs at
    local commit dir
    commit=$(awk -v folder="$1" '$1 == folder {print $2; exit}' "$ROOT/queue-pins" 2>/dev/null)
    [ -n "$commit" ] || { echo "$CODE"; return; }
    commit=$(git -C "$MAIN" rev-parse --verify -q "$commit^{commit}") || return 1  # a pin that names no commit
    [ "$commit" = "$(git -C "$CODE" rev-parse HEAD)" ] && { echo "$CODE"; return; }
    commit=${commit:0:7}
    dir=$CODE-$commit
    [ -d "$dir" ] || git -C "$MAIN" worktree add -q --detach "$dir" "$commit" > /dev/null 2>&1 || return 1
    echo "$dir"
}
for set in hotpotqa 2wiki musique; do  # BM25 indexes of every corpus (seconds; kept in the hopkit cache)
    hopkit index --backend bm25 --dataset "${TEST[$set]%\[*}" > /dev/null 2>&1
done
hopkit index --backend bm25 --dataset "${TUNE[musique]}" > /dev/null 2>&1
finished() { grep -q "^done $1 rc=0 " "$STATUS" 2>/dev/null; }  # a study that ended cleanly is not started again
# `touch runs/queue-stop` ends the queue before its next study, so the worktree can move between studies
stop_requested() {
    [ -e "$ROOT/queue-stop" ] || return 1
    rm -f "$ROOT/queue-stop"
    echo "stopped $(date +%F\ %T): queue-stop asked for a stop between studies" >> "$STATUS"
}
# the logs are committed as they grow (every COMMIT_EVERY seconds, only runs/), so a stopped session loses nothing
LOGS=(experiments/reproduce/runs experiments/offline-defaults/runs experiments/bench-lm)
# a commit made in main at the same moment holds git's index lock; the committer then tries again, up to 5 times.
# Only the log folders that exist are added, and only those git tracks a file in are named to the commit: a pathspec
# matching no file (a folder made but still empty, such as offline-defaults/runs before its job starts) fails the
# whole add or commit, and so every commit failed while that folder stood empty.
commit_logs() {
    local try tracked path present=()
    for path in "${LOGS[@]}"; do [ -e "$MAIN/$path" ] && present+=("$path"); done
    [ ${#present[@]} -eq 0 ] && return
    for try in 1 2 3 4 5; do
        tracked=()
        if ! git -C "$MAIN" add -A "${present[@]}" 2>/dev/null; then sleep $((try * 5)); continue; fi
        for path in "${LOGS[@]}"; do
            [ -n "$(git -C "$MAIN" ls-files -- "$path" | head -1)" ] && tracked+=("$path")
        done
        [ ${#tracked[@]} -eq 0 ] && return
        { git -C "$MAIN" diff --cached --quiet -- "${tracked[@]}" 2>/dev/null ||
          git -C "$MAIN" commit -q -m "reproduce: queue logs" -- "${tracked[@]}" > /dev/null 2>&1; } && return
        sleep $((try * 5))
    done
}
( while sleep "${COMMIT_EVERY:-900}"; do commit_logs; done ) &
COMMITTER=$!
trap 'kill $COMMITTER 2>/dev/null; commit_logs' EXIT
run() {  # name, then reproduce's arguments; OUT= names another study folder than the name
    local name=$1 out=${OUT:-$1}; shift
    finished "$name" && return
    stop_requested && exit 0
    if ! AT=$(code_for "$out"); then
        echo "skipped $name $(date +%F\ %T): no worktree at the commit runs/queue-pins names for $out" >> "$STATUS"
        return
    fi
    echo "start $name $(date +%F\ %T) $(git -C "$AT" rev-parse --short HEAD)" >> "$STATUS"
    hopkit "$@" --out "$ROOT/$out" --retriever bm25 --lm local:qwen1.5b --quiet >> "$ROOT/$name.log" 2>&1
    echo "done $name rc=$? $(date +%F\ %T)" >> "$STATUS"
    AT=$CODE
}
# item 2's benchmark: IRCoT zero-shot and few-shot on 10 MuSiQue dev questions, each in a fresh process
if ! finished bench-demos; then
    echo "start bench-demos $(date +%F\ %T)" >> "$STATUS"
    hopkit bench-demos --dataset "${TUNE[musique]}" --demos-from "${DEMOS[musique]}" --n 10 \
        --out "$ROOT/bench-demos.json" >> "$ROOT/bench-demos.log" 2>&1
    echo "done bench-demos rc=$? $(date +%F\ %T)" >> "$STATUS"
fi
# IRCoT picks its reader once per model, on the first tune split (MuSiQue's), and holds it on the others
reader_from() { [ "$1" = ircot ] && [ "$2" != musique ] && echo --reader-from "$ROOT/ircot-musique"; }
tuned() {  # OneR and IRCoT on one dataset, tuned on the paper's grid and tested
    for method in oner ircot; do
        run "$method-$1" reproduce "$method" --tune "${TUNE[$1]}" --test "${TEST[$1]}" --demos-from "${DEMOS[$1]}" \
            $(reader_from "$method" "$1")
    done
}
fixed() {  # SearChain and ToR at their papers' settings on one dataset
    for method in searchain tor; do
        run "$method-$1" reproduce "$method" --test "${SHORT_TEST[$1]}" --demos-from "${DEMOS[$1]}"
    done
}
# a job outside the reproduce folders (name: its runs/queue-pins key): false when it has finished or its pinned
# checkout is missing; else AT is its checkout and its start is recorded
job_start() {
    finished "$1" && return 1
    stop_requested && exit 0
    if ! AT=$(code_for "$1"); then
        echo "skipped $1 $(date +%F\ %T): no worktree at the commit runs/queue-pins names for $1" >> "$STATUS"
        return 1
    fi
    echo "start $1 $(date +%F\ %T) $(git -C "$AT" rev-parse --short HEAD)" >> "$STATUS"
}
test_range() { expr "${TEST[$1]}" : '.*\[\([0-9]*-[0-9]*\)\]$'; }  # SPEC[A-B]: eval's --questions A-B
OFFLINE=$MAIN/experiments/offline-defaults/runs
# hopkit's default IRCoT as a user offline gets it (the hopkit profile over BM25, zero-shot: --retriever auto finds
# no ColBERT index and --demos-from auto no stored train split) on the test questions OneR and IRCoT are scored on,
# so it pairs with both (experiments/offline-defaults/README.md); a run log there, resumed like the studies
offline_default() {
    local set=$1 range
    job_start "offline-defaults-$set" || return 0
    range=$(test_range "$set")
    mkdir -p "$OFFLINE"
    hopkit eval --method ircot --dataset "${TEST[$set]%\[*}" ${range:+--questions "$range"} --retriever bm25 \
        --demos-from none --lm local:qwen1.5b --quiet --out "$OFFLINE/$set-ircot.jsonl" >> "$OFFLINE/$set-ircot.log" 2>&1
    echo "done offline-defaults-$set rc=$? $(date +%F\ %T)" >> "$STATUS"
    AT=$CODE
}
# the same with whole paragraphs (paragraph_words=0, the paper's), on the questions whose gold paragraphs hold an
# answer only past the default's 120 words (hopkit data cut), where the cut can lose evidence; it pairs with the
# default's log on those questions (docs/design/additions.md#paragraph_words)
whole_paragraphs() {
    local set=$1 range
    job_start "whole-paragraphs-$set" || return 0
    range=$(test_range "$set")
    mkdir -p "$OFFLINE"
    hopkit data cut --dataset "${TEST[$set]%\[*}" ${range:+--questions "$range"} --words 120 --qids \
        > "$OFFLINE/$set-cut-120.txt" 2>> "$OFFLINE/$set-ircot-whole.log" &&
    hopkit eval --method ircot --dataset "${TEST[$set]%\[*}" --questions "@$OFFLINE/$set-cut-120.txt" --retriever bm25 \
        --demos-from none --set paragraph_words=0 --lm local:qwen1.5b --quiet --out "$OFFLINE/$set-ircot-whole.jsonl" \
        >> "$OFFLINE/$set-ircot-whole.log" 2>&1
    echo "done whole-paragraphs-$set rc=$? $(date +%F\ %T)" >> "$STATUS"
    AT=$CODE
}
# CPU turns at the queue's model size (docs/results.md has the 0.5B figures): two processes side by side and taking
# turns, against one alone, on the queue's idle cores
bench_turns() {
    finished bench-turns && return
    stop_requested && exit 0
    echo "start bench-turns $(date +%F\ %T) $(git -C "$CODE" rev-parse --short HEAD)" >> "$STATUS"
    hopkit bench-turns --model qwen1.5b --calls 4 --out "$MAIN/experiments/bench-lm/turns-1.5b.json" \
        >> "$MAIN/experiments/bench-lm/turns-1.5b.log" 2>&1
    echo "done bench-turns rc=$? $(date +%F\ %T)" >> "$STATUS"
}
# issue 80's grid benchmark: IRCoT's MuSiQue grid on 5 tune questions, setting by setting and shared, each mode in a
# fresh process (resumable: a finished mode is kept); it runs once the worktree holds its verb, after OneR's study
bench_grid() {
    finished bench-grid-ircot && return
    stop_requested && exit 0
    echo "start bench-grid-ircot $(date +%F\ %T) $(git -C "$CODE" rev-parse --short HEAD)" >> "$STATUS"
    hopkit bench-grid ircot --dataset "${TUNE[musique]}" --demos-from "${DEMOS[musique]}" --n 5 \
        --out "$MAIN/experiments/bench-grid/ircot-musique.json" >> "$MAIN/experiments/bench-grid/ircot-musique.log" 2>&1
    echo "done bench-grid-ircot rc=$? $(date +%F\ %T)" >> "$STATUS"
}
# the MuSiQue and 2Wiki columns first (issue 83), hopkit's default beside them, then SearChain and ToR on MuSiQue,
# then HotpotQA and the rest
run oner-musique reproduce oner --tune "${TUNE[musique]}" --test "${TEST[musique]}" --demos-from "${DEMOS[musique]}"
bench_grid
tuned musique
tuned 2wiki
bench_turns
offline_default musique
whole_paragraphs musique
fixed musique
offline_default 2wiki
whole_paragraphs 2wiki
tuned hotpotqa
fixed 2wiki
fixed hotpotqa
# IRCoT on MuSiQue over three samples of its demonstrations, as the IRCoT paper averages three (prompt set 0 is
# the first study's, read back from its logs)
OUT=ircot-musique run ircot-musique-3-sets reproduce ircot --tune "${TUNE[musique]}" --test "${TEST[musique]}" \
    --demos-from "${DEMOS[musique]}" --prompt-sets 3
