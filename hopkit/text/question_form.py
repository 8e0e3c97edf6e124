"""A question's answer form, read from its surface: yes/no, either-or (the answer is one of two named
options) or open. Real HotpotQA dev questions are mostly of the first two forms (comparison questions),
where one retrieval with the question already names both entities; a per-form split of the figures
shows where a multi-step method can and cannot gain on one-step retrieval.
"""

from __future__ import annotations

import re

YES_NO = "yes/no"
EITHER_OR = "either-or"
OPEN = "open"
FORMS = (YES_NO, EITHER_OR, OPEN)

AUXILIARIES = frozenset({"is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have",
                         "had", "will", "would", "should", "shall", "may", "might", "must"})  # restatement.py too
_OPTIONS = re.compile(r"\w[^?]*\bor\b\s+\S", re.IGNORECASE)


def question_form(question: str) -> str:
    words = question.strip().split()
    if not words:
        return OPEN
    if words[0].lower() in AUXILIARIES:
        return YES_NO
    if _OPTIONS.search(question):
        return EITHER_OR
    return OPEN


_WH_WORDS = {"which", "who", "whose", "what", "whom", "where", "when", "in", "of", "for", "between", "among"}
_CONNECTORS = {"of", "the", "and", "by", "de", "la", "le", "du", "von", "van", "a", "an", "in", "on", "for", "&"}
_OPTION_PAIR = re.compile(r"(?P<a>[^,?:;]+?)\s+or\s+(?P<b>[^,?:;]+)", re.IGNORECASE)


def _named_run(text: str) -> str:
    """The trailing run of a name in ``text``: "Which band has more members The Futureheads" ->
    "The Futureheads". Lower-case connectors ("of", "the") may sit inside a name, not at its start."""
    words = text.split()
    start = len(words)
    for index in range(len(words) - 1, -1, -1):
        word = words[index]
        if word[:1].isupper() or word[:1].isdigit():
            start = index
        elif word.lower() not in _CONNECTORS:
            break
    return " ".join(words[start:])


def _leading_name(text: str) -> str:
    """The leading run of a name in ``text``: "El Paso International Airport is closer" -> "El Paso
    International Airport"; ``text`` itself when it does not start with a name ("cricket")."""
    words = text.split()
    end = 0
    for index, word in enumerate(words):
        if word[:1].isupper() or word[:1].isdigit():
            end = index + 1
        elif word.lower() not in _CONNECTORS:
            break
    return " ".join(words[:end]) if end else text


def either_or_options(question: str) -> tuple[str, str] | None:
    """The two options an either-or question names ("Which genus has more species, Salvia or Arachis?" ->
    ("Salvia", "Arachis")), or None when the question is not either-or or its options cannot be read."""
    if question_form(question) != EITHER_OR:
        return None
    match = None
    for match in _OPTION_PAIR.finditer(question):
        pass  # the last "A or B" holds the options ("Which ... first, A or B?")
    if match is None:
        return None
    first, second = match.group("a").strip(), _leading_name(match.group("b").strip().rstrip(" .!"))
    if first.split()[0].lower() in _WH_WORDS or first.split()[0].lower() in AUXILIARIES:
        first = _named_run(first)
    if not first or not second or first.lower() == second.lower():
        return None
    return first, second
