"""scripts/paragraph_cut.py: paragraphs read that hold a gold answer, and whether the first W words still do."""

from __future__ import annotations

from script_loader import load_script

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage


def test_counts_answers_kept_and_cut():
    cut = load_script("paragraph_cut")
    corpus = Corpus([Passage("early", "A", "Stanley is the seat of the county."),
                     Passage("late", "B", "The county lies north. Its seat, chosen in 1910, is Stanley."),
                     Passage("none", "C", "Nothing about it here.")])
    rows = [{"answers": ["Stanley"], "prediction": {"retrieved": ["early", "late", "none", "not-in-corpus"]}},
            {"answers": ["the seat"], "prediction": {"citations": ["late"]}}]
    # row 1: both 'early' and 'late' hold 'stanley'; within 5 words only 'early' does. Row 2 reads its citations:
    # 'seat' is the 6th word of 'late' ("the" is dropped by normalization, so the cut of 5 words loses it)
    assert cut.count_cut(rows, corpus, words=5) == (3, 1)
    assert cut.count_cut(rows, corpus, words=400) == (3, 3)
