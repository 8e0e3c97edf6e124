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
_OR = re.compile(r"\s+or\s+")  # lower-case "or" only: a title's "Or" ("Dead Or Alive") is no option
_CLAUSE_END = re.compile(r"(?P<word>[\w']+)(?P<mark>[,:])\s")  # "... released first, A or B?": the clause ends
_RUN_ON = re.compile(r",\s+(?=[a-z])")  # "A or B, is a member of ...": the question goes on after the options
_OUT_OF = re.compile(r"\b(?:first|last|\w+er|more|less)\s+(?:out of|between)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s*\?*\s*$")
_NO_CHOICE = {"when", "where", "why", "how"}  # questions that open so never ask to pick one of two names


def question_form(question: str) -> str:
    words = question.strip().split()
    if not words:
        return OPEN
    if either_or_options(question) is not None:
        return EITHER_OR
    if words[0].lower() in AUXILIARIES:
        return YES_NO
    return OPEN


_WH_WORDS = {"which", "who", "whose", "what", "whom", "where", "when", "in", "of", "for", "between", "among"}
_CONNECTORS = {"of", "the", "and", "by", "de", "la", "le", "du", "von", "van", "a", "an", "in", "on", "for", "&"}
_OPTION_PAIR = re.compile(r"(?P<a>[^,?:;]+?)\s+or\s+(?P<b>[^,?:;]+)")


def _named_run(text: str) -> str:
    """The trailing run of a name in ``text``: "Which band has more members The Futureheads" ->
    "The Futureheads". Lower-case connectors ("of", "the") may sit inside a name, not at its start."""
    words = text.split()
    start = len(words)
    for index in range(len(words) - 1, -1, -1):
        word = words[index]
        if _names(word):
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
        if _names(word):
            end = index + 1
        elif word.lower() not in _CONNECTORS:
            break
    return " ".join(words[:end]) if end else text


def either_or_options(question: str) -> tuple[str, str] | None:
    """The two options an either-or question names, or None when it names none that can be read:
    "Which genus has more species, Salvia or Arachis?" -> ("Salvia", "Arachis"); titles keep their commas,
    colons and question marks ("Which film came out first, Danger: Diabolik or Goodbye, Mr. Chips?");
    "Was A or B born first?" and "Who was born first out of A and B?" name options too; a title's "Or"
    ("When was the director of film Dead Or Alive born?") does not."""
    text = " ".join(question.split())
    words = text.split()
    if not words or words[0].lower() in _NO_CHOICE:
        return None
    found = _out_of(text) if not _OR.search(text) else (
        _after_clause(text) or _after_auxiliary(text, words) or _last_pair(text))
    if found is None:
        return None
    first, second = (option.strip(" ,;") for option in found)
    if not first or not second or first.lower() == second.lower():
        return None
    return first, second


def _after_clause(text: str) -> tuple[str, str] | None:
    """The options after the clause that asks ("Which film was released earlier, A or B?"): everything
    after the first comma or colon that follows a lower-case word, the trailing question mark dropped."""
    for clause in _CLAUSE_END.finditer(text):
        if clause.group("word")[:1].islower():
            rest = text[clause.end():].rstrip()
            rest = rest[:-1] if rest.endswith("?") else rest
            parts = _OR.split(rest, maxsplit=1)
            if len(parts) != 2:
                return None
            second = _RUN_ON.split(parts[1], maxsplit=1)[0]
            return parts[0], second.rstrip(" .!")
    return None


def _after_auxiliary(text: str, words: list[str]) -> tuple[str, str] | None:
    """"Was Jovita Carranza or Fidel Kuri Grajales born first?": the options follow the auxiliary."""
    if words[0].lower() not in AUXILIARIES:
        return None
    parts = _OR.split(" ".join(words[1:]), maxsplit=1)
    if len(parts) != 2 or not (_names(parts[0].split()[0]) and _names(parts[1].split()[0])):
        return None  # "Is tea a drink or a food?": no two names to pick from; it reads as yes/no, as before
    return _leading_name(parts[0]), _leading_name(parts[1])


def _out_of(text: str) -> tuple[str, str] | None:
    """"Who was born first out of Heng Pov and Rajesh Bhola?" (a comparison between two named people)."""
    if text.split()[0].lower() not in ("which", "who", "whose"):
        return None
    match = _OUT_OF.search(text)
    return (match.group("a"), match.group("b")) if match else None


def _last_pair(text: str) -> tuple[str, str] | None:
    """The last "A or B" of a question with no clause mark before its options ("Who was born first Doug Liman
    or Saul Metzstein?")."""
    match = None
    for match in _OPTION_PAIR.finditer(text):  # noqa: B007 (the loop keeps the last match)
        pass
    if match is None:
        return None
    first, rest = match.group("a").strip(), match.group("b").strip().rstrip(" .!")
    head = rest.split()
    if not _names(head[1] if head[0].lower() in ("the", "a", "an") and len(head) > 1 else head[0]):
        return None  # unsure: with no clause mark to say where the options start, only two names are read as options
    if first.split()[0].lower() in _WH_WORDS or first.split()[0].lower() in AUXILIARIES:
        first = _named_run(first)
    return first, _leading_name(rest)


def _names(word: str) -> bool:
    """A word that can be part of a name: capitalised, a number, or either in brackets ("(1930 Film)")."""
    head = word.lstrip("(\"'")[:1]
    return head.isupper() or head.isdigit()
