"""A date comparison for either-or questions that compare two options by date (an addition, not in the papers).

"Which film came out first, A or B?", "Who was born later, A or B?", "Which film has the director who is older,
A or B?": the answer follows from two dates. The 1.5B pack's reasoning often states both dates right and then
compares them wrong ("Grandi Magazzini was released in 1986. Krudt Og Klunker was released in 1958. Thus,
Grandi Magazzini was released earlier."): on the first 20 2Wiki dev questions, 5 of IRCoT's 9 such questions.
Where ``hopkit.text.temporal`` reads the question as a comparison by date and ``hopkit.text.question_form`` reads
its two options, the step reads the date the method's own reasoning states for each option
(``hopkit.additions.stated_dates``), from sentences about the kind of event the question compares (a death for
"died first", a birth for "older"), and makes the comparison in code, with no LM call. It acts only when it is sure:
the reasoning gives each option exactly one date, and the precision the two share tells them apart; otherwise
the answer stands (the trace records why). A method with no reasoning text (a direct reader) is left as it is.
It runs after the option check, so the answer it replaces is already one of the options.
"""

from __future__ import annotations

import dspy

from hopkit.additions.stated_dates import stated_dates
from hopkit.text.question_form import either_or_options
from hopkit.text.temporal import EARLIEST, compare_dates, temporal_comparison


class DateComparison(dspy.Module):
    def forward(self, question: str, answer: str, reasoning: str = "",
                context: list[str] | None = None) -> tuple[str, dict | None]:
        """The answer to report and, when the step read the reasoning's dates, a trace record (else None)."""
        comparison = temporal_comparison(question)
        options = either_or_options(question) if comparison else None
        if comparison is None or options is None or not reasoning.strip():
            return answer, None
        direction, event_words = comparison
        dates = stated_dates(reasoning, options, event_words)
        record: dict = {"before": answer, "options": list(options), "direction": direction, "call": False,
                        "dates": [list(d) if d else None for d in dates]}
        if None in dates:
            return answer, {**record, "after": answer, "unsure": "the reasoning gives no single date for an option"}
        order = compare_dates(dates[0], dates[1])  # type: ignore[arg-type]
        if order is None:
            return answer, {**record, "after": answer, "unsure": "the dates do not tell the options apart"}
        earlier, later = (options[0], options[1]) if order < 0 else (options[1], options[0])
        picked = earlier if direction == EARLIEST else later
        return picked, {**record, "after": picked}
