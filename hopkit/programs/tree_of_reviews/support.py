"""Whether an accepted answer is supported by the paragraphs on its path (the checked accept).

An addition to the paper (knob ``check_accept``): the 1.5B reviewer accepted single paragraphs for
two- to four-hop questions with an analysis that invented the missing hop. An accept counts only
when its short answer occurs in the path's paragraphs, or, for yes/no, when the path holds at least
two paragraphs (a yes/no comparison needs both things compared). Otherwise the node searches on.
"""

from __future__ import annotations

from collections.abc import Sequence

from hopkit.text.normalize import normalize_answer

_YES_NO = {"yes", "no"}


def supported(answer: str, paragraphs: Sequence[str]) -> bool:
    norm = normalize_answer(answer)
    if not norm:
        return False
    if norm in _YES_NO:
        return len(paragraphs) >= 2
    text = f" {normalize_answer(' '.join(paragraphs))} "
    if f" {norm} " in text:
        return True
    words = norm.split()
    return len(words) > 1 and all(f" {word} " in text for word in words)
