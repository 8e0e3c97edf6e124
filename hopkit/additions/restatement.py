"""A yes/no answer written as a sentence that restates the question's claim.

"Are both Delmer Daves and Jean-Pierre Jeunet film directors?" answered "Delmer Daves and Jean-Pierre
Jeunet are both film directors." is a yes; the same sentence with a "not" the question lacks is a no. The yes/no check
(hopkit/additions/yes_no_check.py) used to send such sentences to its LM call, whose prompt expects a
compared value, and a small model turned affirmative restatements into "no"
(docs/design/additions.md#restatement). A sentence counts as a restatement when every content word of the question
(all but the leading auxiliary and "both"/"either") occurs in it.
"""

from __future__ import annotations

from hopkit.text.normalize import normalize_answer
from hopkit.text.question_form import AUXILIARIES

_QUANTIFIERS = {"both", "either"}
_NEGATIONS = {"not", "no", "neither", "nor", "never", "none"}
_MIN_WORDS = 4  # shorter answers are values or verdicts, not sentences


def _words(text: str) -> list[str]:
    return normalize_answer(text.replace("n't", " not")).split()


def restated_verdict(question: str, answer: str) -> str | None:
    """``"yes"`` / ``"no"`` when ``answer`` restates the yes/no ``question``'s claim (no when it negates
    it), else None."""
    asked = _words(question)
    if not asked or asked[0] not in AUXILIARIES:
        return None
    content = [word for word in asked[1:] if word not in _QUANTIFIERS and word not in AUXILIARIES]
    said = _words(answer)
    if len(said) < _MIN_WORDS or not content or not all(word in said for word in content):
        return None
    return "no" if _negations(said) > _negations(asked) else "yes"


def _negations(words: list[str]) -> int:
    """Negating words, "not only" aside: a restatement negates the claim only with a negation the question
    does not hold ("Is A not a film?" restated as "A is not a film." is a yes)."""
    return sum(word in _NEGATIONS and not (word == "not" and words[i + 1:i + 2] == ["only"])
               for i, word in enumerate(words))
