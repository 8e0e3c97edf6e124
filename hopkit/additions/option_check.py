"""An answer-form check for either-or questions (an addition, not in the papers).

A question that names two options ("Which genus has more species, Salvia or Arachis?") is answered by
one of them. A small model often names neither option as the question words it: a value ("2006" for "which
documentary was created first"), a third name ("UPS Store"), a paraphrase ("white beech" for "Beech") or a
refusal ("We cannot determine who died first ..."), each a certain zero (docs/design/additions.md#option_check).
When the question reads as either-or (``hopkit.text.question_form``):

- an answer that names exactly one option becomes that option, as the question words it, with no call
  ("Manon by Massenet has more acts" -> "Manon by Massenet");
- an answer that names neither option, or both, gets one short call that picks an option from the
  reasoning (or, with a direct reader, the paragraphs). The call's output is typed as one of the two
  options (a ``Literal``), and it is not shown the answer it replaces: told "the answer given: UPS
  Store", a small model copies it back. A reply that is neither option (a
  parse failure after DSPy's JSON fallback) leaves the answer as it was, and is counted.
"""

from __future__ import annotations

import re
from typing import Literal

import dspy
from dspy.utils.exceptions import AdapterParseError

from hopkit.signatures.answer import OptionAnswer
from hopkit.text.question_form import either_or_options

_ARTICLES = {"the", "a", "an"}


def content_words(text: str) -> set[str]:
    """Lower-cased words less articles (the date comparison reads mentions the same way)."""
    return {w for w in re.findall(r"\w+", text.lower()) if w not in _ARTICLES}


def named_options(answer: str, options: tuple[str, str]) -> list[str]:
    """The options ``answer`` names: all of an option's words are in the answer ("John Howard Carpenter"
    names "John Carpenter"), or all of the answer's words are in one option ("Forest" names "Battle of
    Hurtgen Forest" when the other option lacks it)."""
    said = content_words(answer)
    if not said:
        return []
    full = [option for option in options if content_words(option) and content_words(option) <= said]
    if full:
        return full
    return [option for option in options if said <= content_words(option)]


class OptionCheck(dspy.Module):
    def forward(self, question: str, answer: str, reasoning: str = "",
                context: list[str] | None = None) -> tuple[str, dict | None]:
        """The answer to report and, when the check acted, a trace record (else None)."""
        options = either_or_options(question)
        if options is None:
            return answer, None
        named = named_options(answer, options)
        if len(named) == 1:
            return (answer, None) if named[0] == answer else (named[0], {"before": answer, "after": named[0],
                                                                           "options": list(options), "call": False})
        record = {"before": answer, "options": list(options), "call": True}
        # typed per question as one of its two options: a predictor of its own, so threads never share it
        decide = dspy.Predict(OptionAnswer.with_updated_fields("answer", type_=Literal[options]))
        try:
            reply = decide(context=[] if reasoning.strip() else list(context or []), question=question,
                            options=list(options), facts=reasoning.strip()).answer or ""
        except AdapterParseError as error:  # counted; the answer stands
            return answer, {**record, "after": answer, "parse_error": str(error)[:200]}
        picked = named_options(reply, options)
        if len(picked) != 1:
            return answer, {**record, "after": answer, "reply": reply, "unresolved": True}
        return picked[0], {**record, "after": picked[0], "reply": reply}
