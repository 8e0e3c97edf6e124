"""The date a piece of reasoning states for each of two options, read without an LM.

A reader that reasons "Grandi Magazzini was released in 1986. Krudt Og Klunker was released in 1958. Thus,
Grandi Magazzini was released earlier." has both dates right and the comparison wrong. This module reads the
dates back, sentence by sentence (two clauses joined by "while", "whereas", "but" or a semicolon read as two): a
sentence that names one option (and not the other) and gives one date gives that option's date;
a person or thing a dateless sentence ties to one option ("Mummy's Boys was directed by Fred Guiol") stands for
that option in later sentences ("Fred Guiol was born on February 17, 1898"). A sentence that names both sides
(a conclusion) is not read, nor is a date from a sentence about another kind of event than the question compares
(a birth year when it asks who died first). An option whose sentences give no date, or two different dates, has
none.
"""

from __future__ import annotations

import re

from hopkit.additions.option_check import content_words
from hopkit.data.sentences import split_sentences
from hopkit.text.temporal import Date, parse_date

_ARTICLES = {"the", "a", "an"}
# two facts joined in one sentence ("X was released in 1988, while Y was released in 1974") are read apart, and so
# is a sentence that starts with a number, which the sentence splitter leaves joined to the one before ("Y was
# released in 1988. 1988 is earlier than 2010, so ...": the second names one option beside two dates)
_CLAUSES = re.compile(r"\s*;\s+|,?\s+(?:while|whereas|but)\s+|(?<=\d)\.\s+(?=\d)", re.I)
_NAME = re.compile(r"(?:[A-Z][\w'.-]*)(?:\s+(?:[A-Z][\w'.-]*|de|van|von|da|di|del|la|le|bin|ibn))*")


def _option_words(option: str) -> set[str]:
    """An option's words without a trailing disambiguation ("Love In A Fallen City (Film)" -> love, in, fallen,
    city): the reasoning seldom copies it."""
    return content_words(re.sub(r"\s*\([^)]*\)\s*$", "", option)) or content_words(option)


def _names(sentence: str, exclude: set[str]) -> set[str]:
    """Capitalised name runs in a sentence, less any word of ``exclude`` (the options' words), lower-cased."""
    found = set()
    for match in _NAME.finditer(sentence):
        words = [w for w in re.findall(r"\w+", match.group(0).lower()) if w not in exclude and w not in _ARTICLES]
        if len(words) >= 2 or (words and len(words[0]) > 3):
            found.add(" ".join(words))
    return found - {"thus", "so", "therefore", "hence", "both", "since", "because", "however"}


def _mentions(sentence_words: set[str], sentence: str, keys: set[str], option_words: set[str]) -> bool:
    if option_words and option_words <= sentence_words:
        return True
    lowered = " ".join(re.findall(r"\w+", sentence.lower()))
    return any(re.search(rf"\b{re.escape(key)}\b", lowered) for key in keys)


def stated_dates(reasoning: str, options: tuple[str, str], event_words: frozenset[str] | None = None
                 ) -> list[Date | None]:
    """Each option's date as the reasoning states it, or None where it states none (or two different ones).
    ``event_words``: a dated sentence counts only when it holds one of them (hopkit.text.temporal)."""
    sentences = [clause for sentence in split_sentences(reasoning) for clause in _CLAUSES.split(sentence) if clause]
    option_words = [_option_words(option) for option in options]
    everything = option_words[0] | option_words[1]
    linked: list[set[str]] = [set(), set()]
    found: list[set[Date]] = [set(), set()]
    for sentence in sentences:
        words = content_words(sentence)
        sides = [_mentions(words, sentence, linked[i], option_words[i]) for i in range(2)]
        if sides[0] == sides[1]:  # neither side, or both (a conclusion): read nothing
            continue
        side = sides.index(True)
        date = parse_date(sentence)
        if date is None:
            if not re.search(r"\d{3,4}", sentence):  # a dateless sentence ties its names to the side it names
                linked[side] |= _names(sentence, everything) - linked[1 - side]
            continue
        if event_words is None or words & event_words:
            found[side].add(date)
    return [next(iter(dates)) if len(dates) == 1 else None for dates in found]
