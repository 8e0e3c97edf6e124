#!/usr/bin/env bash
# The five optimizer studies' table: each chosen setting against the paper's (trial 0) on its test
# questions, paired, and the difference pooled over the studies' test questions.
cd "$(dirname "$0")"
# (`hopkit report` prints each study's summary first; the table is the part from "| study | chosen knobs" to "pooled over")
../../.venv/bin/hopkit report ircot-musique-labeled ircot-hotpotqa-labeled searchain-musique-labeled \
    searchain-hotpotqa-labeled tor-musique-labeled | sed -n '/^| study | chosen knobs/,/^pooled over .* studies/p'
