"""Writing the search query a fact answers: SearChain's demonstrations from chains of thought.

A chain of thought (IRCoT's demonstration files, a user's own file) states facts but not the
queries that found them; a Chain-of-Query demonstration needs both.
"""

from __future__ import annotations

import dspy


class QueryForFact(dspy.Signature):
    """Write the simple search question that the fact answers. Ask about one thing, name it as the
    fact does, and ask for the piece of information the fact adds (a date, a place, a name, a
    number). Do not ask the whole question."""

    question: str = dspy.InputField(desc="the multi-step question this fact helps to answer")
    fact: str = dspy.InputField()
    query: str = dspy.OutputField(desc="one short question, e.g. 'When was Ada Pell born?'")
