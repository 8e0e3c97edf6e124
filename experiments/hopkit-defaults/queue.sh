#!/usr/bin/env bash
# The runs behind the hopkit-defaults table, one LM job at a time, each resumable from its log.
#   bash experiments/hopkit-defaults/queue.sh DATA OUT
# DATA: the folder holding hotpotqa/dev100.jsonl, 2wiki/dev82.jsonl, musique/{dev100,train100}.jsonl and
# ircot-demos/; OUT: where the logs go (OUT/SET/METHOD.jsonl, the names table.sh reads once gzipped into logs/).
# Every run is the hopkit profile; the settings are those each cell's .meta.json records.
set -u
DATA=$(cd "${1:?the data folder}" && pwd)
OUT=${2:?the output folder}
mkdir -p "$OUT"/{hotpotqa,2wiki,musique}
HOTPOT="ircot:$DATA/hotpotqa/dev100.jsonl"
WIKI="2wikimultihopqa:validation@$DATA/2wiki/dev82.jsonl"
MUSIQUE="musique:validation@$DATA/musique/dev100.jsonl"
LM=local:qwen1.5b
eval_() { hopkit eval --lm "$LM" --quiet "$@"; }
for spec in "$HOTPOT" "$WIKI" "$MUSIQUE"; do hopkit index --backend bm25 --dataset "$spec"; done
# MuSiQue's retriever: ColBERT fine-tuned on MuSiQue train's gold paragraphs (--retriever auto chose it there)
CKPT=$OUT/colbert-musique
hopkit train-retriever --init minilm --triples gold --dataset "musique:train@$DATA/musique/train100.jsonl" \
    --steps 30 --out "$CKPT"
hopkit index --backend colbert --checkpoint "$CKPT" --dataset "$MUSIQUE"
# OneR over K in 5..15, question by question; the table takes the K with the best F1 (HotpotQA 11, 2Wiki 15,
# MuSiQue 11), questions 1-60 of HotpotQA and MuSiQue, all 82 of 2Wiki
hopkit sweep --method oner --knob k --values 5,7,9,11,13,15 --dataset "$HOTPOT" --n 60 --retriever bm25 --out-dir "$OUT/hotpotqa/oner-sweep"
hopkit sweep --method oner --knob k --values 5,7,9,11,13,15 --dataset "$WIKI" --retriever bm25 --out-dir "$OUT/2wiki/oner-sweep"
hopkit sweep --method oner --knob k --values 5,7,9,11,13,15 --dataset "$MUSIQUE" --n 60 --retriever colbert --out-dir "$OUT/musique/oner-sweep"
for method in nor ircot tor; do eval_ --method $method --dataset "$HOTPOT" --n 60 --retriever bm25 --demos-from none --out "$OUT/hotpotqa/$method.jsonl"; done
eval_ --method searchain --dataset "$HOTPOT" --n 60 --retriever bm25 --demos-from none --set k=3 --out "$OUT/hotpotqa/searchain.jsonl"
for method in nor ircot searchain; do eval_ --method $method --dataset "$WIKI" --retriever bm25 --demos-from none --out "$OUT/2wiki/$method.jsonl"; done
eval_ --method tor --dataset "$WIKI" --retriever bm25 --demos-from "ircot-demos:$DATA/ircot-demos/2wikimultihopqa.txt" --out "$OUT/2wiki/tor.jsonl"
eval_ --method nor --dataset "$MUSIQUE" --n 60 --out "$OUT/musique/nor.jsonl"
eval_ --method ircot --dataset "$MUSIQUE" --n 60 --retriever colbert --demos-from "musique:train@$DATA/musique/train100.jsonl" --out "$OUT/musique/ircot.jsonl"
for method in searchain tor; do eval_ --method $method --dataset "$MUSIQUE" --n 60 --retriever colbert --demos-from none --out "$OUT/musique/$method.jsonl"; done
# the date comparison replayed on every log, as the table's logs are
for log in "$OUT"/*/*.jsonl "$OUT"/*/oner-sweep/*.jsonl; do hopkit replay "$log" --out "${log%.jsonl}.replayed.jsonl"; done
