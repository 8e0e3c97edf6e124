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


def _same_key(sentence: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in sentence.lower()).split())


def repeats(sentence: str, chain: list[str]) -> bool:
    """The sentence says again, word for word (case and punctuation aside), one the chain holds."""
    return _same_key(sentence) in {_same_key(s) for s in chain}


def first_new_sentence(generated: list[str], chain: list[str]) -> tuple[str, int]:
    """The first generated sentence the chain does not already hold, and how many restated ones preceded it.

    The paper's reasoner continues the text ``Q: question A: s1 ... sn`` and cannot write the question or s1
    again; a chat model given them as inputs often writes them out again before going on (IRCoT passes the
    question as the chain's first line). Its restatement is skipped, and the first sentence that moves the chain
    on is kept. ``("", n)`` when it wrote nothing new.
    """
    for position, sentence in enumerate(generated):
        if not repeats(sentence, chain):
            return sentence, position
    return "", len(generated)
