"""IRCoT's sentence handling: the first generated sentence, the "answer is" step, the answer after it."""

from __future__ import annotations

from hopkit.data.sentences import first_sentence, split_sentences

__all__ = ["extract_answer", "first_sentence", "says_answer", "split_sentences"]


def says_answer(sentence: str) -> bool:
    return "answer is" in sentence.lower()


def extract_answer(generation: str) -> tuple[str, bool]:
    """The text after the last "answer is[:]", without a final period; else the whole generation.

    Returns (answer, parsed): ``parsed`` is False when the paper's fallback (the whole generation) was used.
    """
    text = " ".join((generation or "").split())
    at = text.lower().rfind("answer is")
    if at < 0:
        return text, False
    return text[at + len("answer is"):].lstrip(" :").rstrip(" .").strip(), True
