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

_AUXILIARIES = {"is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have", "had",
                "will", "would", "should", "shall", "may", "might", "must"}
_OPTIONS = re.compile(r"\w[^?]*\bor\b\s+\S", re.IGNORECASE)


def question_form(question: str) -> str:
    words = question.strip().split()
    if not words:
        return OPEN
    if words[0].lower() in _AUXILIARIES:
        return YES_NO
    if _OPTIONS.search(question):
        return EITHER_OR
    return OPEN
