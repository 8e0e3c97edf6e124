#!/usr/bin/env bash
# Issue 82: Self-Ask, ReAct and ITER-RETGEN, with OneR beside them, on the bundled dev split's first 5 questions with
# the offline 1.5B model (hopkit profile, 3 worked examples from bundled:train, BM25). Resumable: each log resumes.
#   bash experiments/step-baselines/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
for method in oner self-ask react iter-retgen; do
    .venv/bin/hopkit eval --method "$method" --dataset bundled:dev --n 5 --lm local:qwen1.5b --retriever bm25 --quiet \
        --out "experiments/step-baselines/runs/$method.jsonl"
done
.venv/bin/hopkit report experiments/step-baselines/runs/*.jsonl
