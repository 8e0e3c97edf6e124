#!/usr/bin/env bash
# The retriever choice rule on the three real dev sets (issue 39): BM25 against ColBERT fine-tuned on that
# dataset's own in-domain source (MuSiQue's train split; the IRCoT authors' files for HotpotQA and 2Wiki), question
# recall@5 and @15 on every dev question, and what `--retriever auto` then picks (hopkit/evaluation/retriever_choice.py). Resumable: a step whose output exists
# is skipped. Output: docs/runs/retrieval/choice-NAME.txt
#   nice bash scripts/retriever_choice.sh
set -eu
cd "$(dirname "$0")/.."
HK=".venv/bin/hopkit"
SHARED=$(cd ../shared/data && pwd)
CKPT=${HOPKIT_HOME:-$HOME/.cache/hopkit}/checkpoints
OUT=docs/runs/retrieval
mkdir -p "$OUT"
while read -r name dev source; do
    ckpt=$CKPT/colbert-minilm-ft-$name
    [ -d "$ckpt" ] || $HK train-retriever --init minilm --triples gold --dataset "$source" --steps 30 --out "$ckpt"
    index=${HOPKIT_HOME:-$HOME/.cache/hopkit}/indexes
    $HK index --backend bm25 --dataset "$dev" > /dev/null
    # an index built with this checkpoint already (none on a fresh machine: then build it)
    grep -ls "colbert-minilm-ft-$name\"" "$index"/*.colbert/hopkit-index.json | grep -q . \
        || $HK index --backend colbert --checkpoint "$ckpt" --dataset "$dev"
    {
        echo "# $(git rev-parse --short HEAD) $(date -u +%FT%TZ); ColBERT: $ckpt (fine-tuned on $source, 30 steps)"
        for k in 5 15; do for backend in bm25 colbert; do
            $HK eval-retrieval --dataset "$dev" --retriever $backend --k $k --quiet | tail -1
        done; done
        $HK eval-retrieval --dataset "$dev" --retriever auto --k 5 --quiet 2>&1 | grep '^retriever:' | head -1
    } > "$OUT/choice-$name.txt"
    cat "$OUT/choice-$name.txt"
done <<LIST
hotpotqa ircot:$SHARED/hotpotqa/dev100.jsonl ircot-demos:$SHARED/ircot-demos/hotpotqa.txt
2wiki 2wikimultihopqa:validation@$SHARED/2wiki/dev82.jsonl ircot-demos:$SHARED/ircot-demos/2wikimultihopqa.txt
musique musique:validation@$SHARED/musique/dev100.jsonl musique:train@$SHARED/musique/train100.jsonl
LIST
