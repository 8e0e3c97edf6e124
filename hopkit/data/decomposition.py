"""MuSiQue's question decompositions as hop queries and a chain, for demonstrations and optimization.

Each hop of ``question_decomposition`` is a question ("Who was the first president of #1 ?") or a Wikidata
pair ("Hello Love >> performer"), with its answer and the index of its supporting paragraph. A hop's
``#k`` is replaced by hop k's answer, a pair becomes "performer of Hello Love?", and the hop's fact sentence
states the query's answer ("The performer of Hello Love is Hank Snow."; a question hop keeps its question
and answer: "Who was the first president of American Psychological Association? G. Stanley Hall.").
"""

from __future__ import annotations

import re

_REFERENCE = re.compile(r"#(\d+)")


def hop_queries_and_chain(decomposition: list[dict]) -> tuple[list[str], list[str]]:
    """The hops' queries and fact sentences, in order; empty lists when a hop cannot be read."""
    answers: list[str] = []
    queries, facts = [], []
    for hop in decomposition:
        text, answer = str(hop.get("question") or "").strip(), str(hop.get("answer") or "").strip()
        if not text or not answer:
            return [], []
        text = _REFERENCE.sub(lambda m: _earlier(answers, int(m.group(1))), text)
        if ">>" in text:
            subject, _, relation = (part.strip() for part in text.partition(">>"))
            query = f"{relation} of {subject}" + ("" if subject.endswith("?") else "?")  # a title may end in "?"
            fact = f"The {relation} of {subject} is {answer}."
        else:
            query = " ".join(text.replace(" ?", "?").split())
            query = query if query.endswith("?") else f"{query}?"
            fact = f"{query} {answer}."
        answers.append(answer)
        queries.append(query)
        facts.append(fact)
    return queries, facts


def _earlier(answers: list[str], number: int) -> str:
    return answers[number - 1] if 1 <= number <= len(answers) else f"#{number}"
