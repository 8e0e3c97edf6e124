"""Whether an accepted answer is supported by the paragraphs on its path (the checked accept).

An addition to the paper (knob ``check_accept``): the 1.5B reviewer accepted single paragraphs for
two- to four-hop questions with an analysis that invented the missing hop. An accept counts only
when its short answer occurs in the path's paragraphs, and when a comparison has both sides on the
path: a yes/no question needs at least two paragraphs, and an either-or question ("Which has more
species, Salvia or Arachis?") needs each of its two options named somewhere on the path: a small reviewer
decides a comparison from one side (docs/design/additions.md#check_accept). Otherwise the node searches on.

The checked reject (knob ``check_reject``) is the other side of the same failure: a paragraph whose
title names one of an either-or question's options is about one side of the comparison, so it is
relevant whatever the review says; its reject becomes a search (a namesake's page is titled with an option
too, and is searched on at the cost of one review).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hopkit.text.normalize import normalize_answer
from hopkit.text.question_form import either_or_options

_YES_NO = {"yes", "no"}


def supported(answer: str, paragraphs: Sequence[str], question: str = "") -> bool:
    norm = normalize_answer(answer)
    if not norm:
        return False
    text = f" {normalize_answer(' '.join(paragraphs))} "
    if norm in _YES_NO:
        return len(paragraphs) >= 2
    options = either_or_options(question) if question else None
    if options is not None and not all(_mentioned(normalize_answer(option), text) for option in options):
        return False
    return _mentioned(norm, text)


def _mentioned(norm: str, text: str) -> bool:
    """``norm`` occurs in ``text`` (both normalized, ``text`` padded with spaces), whole or word by word."""
    if not norm:
        return False
    if f" {norm} " in text:
        return True
    words = norm.split()
    return len(words) > 1 and all(f" {word} " in text for word in words)


def names_an_option(question: str, title: str) -> bool:
    """The paragraph title names one of the either-or question's options ("Salvia" and "Salvia", "Live" and
    "Live (band)", "Manon by Massenet" and "Manon"): the words of the shorter all occur in the longer."""
    options = either_or_options(question)
    name = normalize_answer(title.split(" (")[0])
    if options is None or not name:
        return False
    for option in options:
        words = normalize_answer(option).split()
        if not words:
            continue
        short, long_ = (name.split(), words) if len(name.split()) <= len(words) else (words, name.split())
        if all(word in long_ for word in short):
            return True
    return False


def checked_accept(state: Any, node: Any, single_path: bool) -> None:
    """``check_accept``: an accept whose answer its path does not hold searches on."""
    paragraphs = [f"{state.passages[pid].title}. {state.passages[pid].text}" for pid in node.path]
    if node.action == "accept" and not supported(node.answer, paragraphs, state.question):
        node.action, node.unsupported_accept = "search", True


def checked_reject(state: Any, node: Any, single_path: bool) -> None:
    """``check_reject``: a reject of a paragraph titled with one of an either-or question's options searches on
    (CoR: any paragraph on its path)."""
    titles = [state.passages[pid].title for pid in (node.path if single_path else [node.pid])]
    if node.action == "reject" and any(names_an_option(state.question, title) for title in titles):
        node.action, node.overruled_reject = "search", True


REVIEW_CHECKS = {"check_accept": checked_accept, "check_reject": checked_reject}


def review_checks_for(knobs: Mapping[str, Any]) -> list[Callable[[Any, Any, bool], None]]:
    """The checks a Tree of Reviews with these knobs runs on each review, in order (none in ``paper``)."""
    return [check for name, check in REVIEW_CHECKS.items() if knobs.get(name)]
