"""A short-form step for answers written as sentences (an addition, not in the papers).

HotpotQA's answers are short phrases, scored by exact match and token F1. SearChain's final answer comes
from the planner's chain, and the 1.5B planner often writes it as a sentence ("Lawson has more members than
American Music Club.") though the field asks for a phrase (docs/design/additions.md#short_form).
When the answer has SENTENCE_WORDS words or more and the question is not yes/no (the yes/no check decides
those), one short call copies the answering phrase out of the sentence. The phrase stands only when it is
in the sentence word for word and shorter, so the step changes an answer's form, never what it says.
"""

from __future__ import annotations

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.signatures.answer import ShortAnswerForm
from hopkit.text.normalize import normalize_answer
from hopkit.text.question_form import YES_NO, question_form

SENTENCE_WORDS = 5  # an answer this long, with a verb, is a sentence
_VERBS = {"is", "are", "was", "were", "has", "have", "had", "does", "did", "became",
           "become", "becomes", "lived", "lives", "died", "dies", "born", "made", "makes",
                        "founded", "released", "directed", "wrote", "written", "played", "plays", "won", "contains"}


def is_sentence(answer: str) -> bool:
    """Five words or more with a verb: "Lawson has more members than American Music Club." is a sentence;
    "the University of New Mexico at Albuquerque" (a long name, as HotpotQA's and 2Wiki's gold often is) is not."""
    words = normalize_answer(answer).split()
    return len(words) >= SENTENCE_WORDS and any(word in _VERBS for word in words)


def within(phrase: str, sentence: str) -> bool:
    """The phrase is a shorter run of the sentence's words, after normalisation."""
    short, whole = normalize_answer(phrase), normalize_answer(sentence)
    return bool(short) and short != whole and f" {short} " in f" {whole} "


class ShortForm(dspy.Module):
    def __init__(self) -> None:
        super().__init__()
        self.shorten = dspy.Predict(ShortAnswerForm)

    def forward(self, question: str, answer: str, reasoning: str = "",
                context: list[str] | None = None) -> tuple[str, dict | None]:
        """The answer to report and, when the step called the LM, a trace record (else None)."""
        if not is_sentence(answer) or question_form(question) == YES_NO:
            return answer, None
        try:
            phrase = (self.shorten(question=question, sentence=answer).answer or "").strip()
        except AdapterParseError as error:  # counted; the sentence stands
            return answer, {"before": answer, "after": answer, "call": True, "parse_error": str(error)[:200]}
        if not within(phrase, answer):
            return answer, {"before": answer, "after": answer, "call": True, "rejected": phrase}
        return phrase, {"before": answer, "after": phrase, "call": True}
