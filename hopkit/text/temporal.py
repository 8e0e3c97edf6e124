"""Temporal comparisons read from a question's surface, and dates read from text.

An either-or question that compares two options by a date ("Which film came out first, A or B?", "Who was born
later, A or B?", "Which film has the director who is older, A or B?") is decided by two dates, and a small LM that
reads both dates correctly still often picks the wrong option when it compares them. ``temporal_direction`` says
whether a question compares by date and which end wins; ``parse_date`` and ``compare_dates`` compare two dates
written in the usual English forms ("15 October 1863", "May 21, 1834", "1127", "44 BC"), and say so when they
cannot tell.
"""

from __future__ import annotations

import re
from typing import Literal

Direction = Literal["earliest", "latest"]
EARLIEST: Direction = "earliest"
LATEST: Direction = "latest"

# an age comparison is a comparison of birth dates: the older was born first
_AGE = {"older": EARLIEST, "oldest": EARLIEST, "elder": EARLIEST, "eldest": EARLIEST,
        "younger": LATEST, "youngest": LATEST}
# a comparative that orders events in time, and the end it asks for
_ORDER = {"first": EARLIEST, "earlier": EARLIEST, "earliest": EARLIEST, "sooner": EARLIEST, "before": EARLIEST,
          "later": LATEST, "latest": LATEST, "last": LATEST, "recently": LATEST, "recent": LATEST,
          "newer": LATEST, "newest": LATEST}
# the words a sentence uses for the same kind of event: a date read for "died first" must come from a sentence
# about a death, not one that gives the birth year
_KINDS = [frozenset({"born", "birth"}), frozenset({"died", "death", "dies", "die"}),
          frozenset({"released", "release", "came", "premiered", "aired", "debuted", "published", "issued",
                     "broadcast"}),
          frozenset({"founded", "founding", "established", "formed", "created", "incorporated", "began", "begun",
                     "started", "opened", "launched", "built", "constructed", "inaugurated", "operating",
                     "operation"})]
# the events a date belongs to: an ordering comparative counts only beside one of them, so that "the first
# Russian composer to ..." or "the last name of ..." is no comparison by date
_EVENTS = (frozenset().union(*_KINDS) - {"die", "dies"}) | {
    "discovered", "invented", "elected", "appointed", "married", "happened", "occurred", "occur", "happen", "signed",
    "enacted", "adopted", "dissolved", "filmed", "made", "held", "fought", "sworn", "produced", "written",
    "recorded", "introduced", "completed"}
_WINDOW = 3  # words between an ordering comparative and its event
BIRTH = _KINDS[0]


def _kind(event: str) -> frozenset[str]:
    return next((kind for kind in _KINDS if event in kind), frozenset({event}))


def temporal_comparison(question: str) -> tuple[Direction, frozenset[str]] | None:
    """Whether the question compares by date: which end it asks for, and the words a sentence about that kind of
    event uses (an age comparison compares births); None when it does not read as such."""
    words = re.findall(r"[a-z]+", question.lower())
    for index, word in enumerate(words):
        if word in _AGE:
            return _AGE[word], BIRTH
        if word in _ORDER:
            if word in {"recently", "recent"} and (index == 0 or words[index - 1] not in {"more", "most"}):
                continue
            nearby = words[max(0, index - _WINDOW): index] + words[index + 1: index + 2]
            events = [w for w in nearby if w in _EVENTS]
            if events:
                return _ORDER[word], _kind(events[-1])
    return None


def temporal_direction(question: str) -> Direction | None:
    """Which end a question that compares by date asks for; None when it does not read as such."""
    found = temporal_comparison(question)
    return found[0] if found else None


_MONTHS = {name: number for number, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")], start=1) for name in names}
# a year: three or four digits (not a decade, "1970s"), or one to four with an era ("44 BC", "AD 79" is not read)
_YEAR = re.compile(r"\b(?:(\d{1,4})\s*(bc|bce|b\.c\.|ad|ce|a\.d\.)(?![a-z])|(\d{3,4})(?![\ds]))", re.I)
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)\.?", re.I)
_MONTH_DAY = re.compile(r"\b([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?!\d)", re.I)
_MONTH = re.compile(r"\b([a-z]+)\b", re.I)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")

Date = tuple[int, int | None, int | None]  # year (negative BC), month, day


def parse_date(text: str) -> Date | None:
    """The one date ``text`` gives, at the precision it gives it; None when it gives no year or more than one
    distinct year (a range or two dates is no single date to compare)."""
    text = text.strip()
    iso = _ISO.search(text)
    if iso:
        return int(iso.group(1)), int(iso.group(2)), int(iso.group(3))
    years = {(int(m.group(1) or m.group(3)), (m.group(2) or "").lower().startswith("b")) for m in _YEAR.finditer(text)}
    if len(years) != 1:
        return None
    number, bc = years.pop()
    year = -number if bc else number
    month = day = None
    day_month = next((m for m in _DAY_MONTH.finditer(text) if m.group(2).lower() in _MONTHS), None)
    month_day = next((m for m in _MONTH_DAY.finditer(text) if m.group(1).lower() in _MONTHS), None)
    if day_month:
        day, month = int(day_month.group(1)), _MONTHS[day_month.group(2).lower()]
    elif month_day and int(month_day.group(2)) <= 31 and not _YEAR.fullmatch(month_day.group(2)):
        month, day = _MONTHS[month_day.group(1).lower()], int(month_day.group(2))
    else:
        month = next((_MONTHS[m.group(1).lower()] for m in _MONTH.finditer(text) if m.group(1).lower() in _MONTHS
                      and m.group(1).lower() != "may"), None)  # "may" alone is more often the verb
    if day is not None and not 1 <= day <= 31:
        day = None
    return year, month, day


def compare_dates(a: Date, b: Date) -> int | None:
    """-1 when ``a`` is earlier, 1 when later, None when the precision both give cannot tell them apart."""
    for left, right in zip(a, b):
        if left is None or right is None:
            return None
        if left != right:
            return -1 if left < right else 1
    return None
