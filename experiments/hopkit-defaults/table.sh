#!/usr/bin/env bash
# The hopkit-defaults table (README, docs/results.md) from this folder's logs: F1 (n) of each method on each dev set,
# and its paired F1 difference against OneR at the K tuned on the same questions.
cd "$(dirname "$0")/../.."
.venv/bin/hopkit table experiments/hopkit-defaults/logs --methods "oner=OneR (K tuned),nor=NoR,ircot=IRCoT,searchain=SearChain,tor=Tree of Reviews" --datasets "hotpotqa=HotpotQA dev100,2wiki=2WikiMultihopQA dev82,musique=MuSiQue dev100"
