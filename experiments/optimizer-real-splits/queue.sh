#!/usr/bin/env bash
# The five optimizer studies on real splits, one LM job at a time; each resumes from its storage and logs.
#   bash experiments/optimizer-real-splits/queue.sh DATA OUT
# DATA: the folder holding musique/{dev100,train100}.jsonl, hotpotqa/dev100.jsonl and ircot-demos/; OUT: the
# study folders (summary.json, settings/, test/, program/, plots/). Trial 0 is the paper profile.
set -u
DATA=$(cd "${1:?the data folder}" && pwd)
OUT=${2:?the output folder}
mkdir -p "$OUT"
declare -A DEV=([musique]="musique:validation@$DATA/musique/dev100.jsonl" [hotpotqa]="ircot:$DATA/hotpotqa/dev100.jsonl")
declare -A TRAIN=([musique]="musique:train@$DATA/musique/train100.jsonl"
                  [hotpotqa]="ircot-demos:$DATA/ircot-demos/hotpotqa.txt")
declare -A PARAMS=([ircot]="k,answer_reader" [searchain]="theta,k,r_max"
                   [tor]="width_1,width_2,depth,budget,fusion,relevance_pruning,repetitive_pruning")
study() {  # dataset, method, trials, then the study file's own lines (hopkit optimize --help lists its settings)
    local set=$1 method=$2 trials=$3; shift 3
    local file="$OUT/$method-$set-labeled.toml"
    printf '%s\n' "n_dev = 50" "n_test = 50" "n_train = 20" "slices = 5" "study = \"$method-$set-labeled\"" \
        'retriever = "auto"' "quiet = true" "$@" > "$file"
    hopkit optimize --method "$method" --demos labeled --train "${TRAIN[$set]}" --dev "${DEV[$set]}[1-50]" \
        --test "${DEV[$set]}[51-100]" --params "${PARAMS[$method]}" --trials "$trials" --metric f1 \
        --out "$OUT/$method-$set-labeled" --lm local:qwen1.5b --profile paper --config "$file"
}
study musique ircot 8 "unpruned_check = true"
study hotpotqa ircot 8 "prune_startup = 1"
study musique searchain 6 "prune_startup = 1"
study hotpotqa searchain 6 "prune_startup = 1"
study musique tor 5 "prune_startup = 1"
