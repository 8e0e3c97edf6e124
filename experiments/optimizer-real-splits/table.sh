#!/usr/bin/env bash
# The five optimizer studies' table (docs/results.md): each chosen setting against the paper's (trial 0) on its test
# questions, paired, and the difference pooled over the studies' test questions.
cd "$(dirname "$0")"
../../.venv/bin/hopkit report ircot-musique-labeled ircot-hotpotqa-labeled searchain-musique-labeled \
    searchain-hotpotqa-labeled tor-musique-labeled
