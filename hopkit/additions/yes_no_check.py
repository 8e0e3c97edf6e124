"""An answer-form check for yes/no questions (an addition, not in the papers).

A question that asks yes or no ("Were A and B released in the same year?") has the answer yes or no,
but a small reader often answers with the value it compared ("2011", "3", "749 feet";
docs/design/additions.md#yes_no_check). When the question reads as yes/no (``hopkit.text.question_form``) and
the answer is neither, one short call asks for the verdict from the reader's own reasoning (or, with a direct reader,
from its paragraphs). Any other answer passes untouched, and with no call. A sentence that restates the
question's claim ("A and B are both film directors.") is read as yes (no, when it negates it) with no
call (hopkit/additions/restatement.py).

The call asks the question itself, with the reasoning's facts, and thinks before it answers
(``dspy.ChainOfThought``); the value the reader concluded ("So the answer is: 749 feet.") is left out of the
facts. An earlier prompt told the LM that the answer named a value and asked it to compare values, with the
verdict as its first word, and it leaned to "no" far more often than the data does.
"""

from __future__ import annotations

import re

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.additions.restatement import restated_verdict
from hopkit.signatures.answer import YesNoAnswer
from hopkit.text.question_form import YES_NO, question_form

VERDICTS = ("yes", "no")
# the reader's concluding value ("So the answer is: 749 feet."), which answers a different question than yes/no
CONCLUSION = re.compile(r"\s*so the answer is\b.*$", re.IGNORECASE | re.DOTALL)


def verdict_of(answer: str) -> str | None:
    """``"Yes."`` and ``"no, they were not"`` -> ``yes`` / ``no``; anything else -> None. Only the first word
    counts: ``hopkit.text.labels.yes_no`` reads any "not" in a value answer as no, which would skip the call."""
    words = answer.strip().lower().replace(",", " ").replace(".", " ").split()
    return words[0] if words and words[0] in VERDICTS else None


class YesNoCheck(dspy.Module):
    def __init__(self, restatement: bool = True) -> None:
        super().__init__()
        self.restatement = restatement  # knob ``restatement``: read a restating sentence with no call
        self.decide = dspy.ChainOfThought(YesNoAnswer)

    def forward(self, question: str, answer: str, reasoning: str = "",
                context: list[str] | None = None) -> tuple[str, dict | None]:
        """The answer to report and, when the check acted, a trace record (else None)."""
        if question_form(question) != YES_NO:
            return answer, None
        verdict = verdict_of(answer)
        if verdict is not None:  # "Yes, both are." -> "yes", with no call
            return (answer, None) if verdict == answer else (verdict,
                                                             {"before": answer, "after": verdict, "call": False})
        restated = restated_verdict(question, answer) if self.restatement else None
        if restated is not None:  # "A and B are both directors." -> "yes", with no call
            return restated, {"before": answer, "after": restated, "call": False, "restated": True}
        facts = facts_of(reasoning)
        try:
            decided = verdict_of(self.decide(context=[] if facts else list(context or []),
                                             question=question, facts=facts).answer or "")
        except AdapterParseError as error:  # counted; the reader's answer stands
            return answer, {"before": answer, "after": answer, "call": True, "parse_error": str(error)[:200]}
        if decided is None:
            return answer, {"before": answer, "after": answer, "call": True, "unresolved": True}
        return decided, {"before": answer, "after": decided, "call": True}


def facts_of(reasoning: str) -> str:
    """The reasoning without its concluding value: "A is 749 feet, B 628 feet. So the answer is: 749 feet." ->
    "A is 749 feet, B 628 feet." (a reasoning that is only its conclusion stays whole)."""
    return CONCLUSION.sub("", reasoning.strip()).strip() or reasoning.strip()
