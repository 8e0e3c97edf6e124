"""SearChain's two LM steps: plan a Chain-of-Query, and write the traced final content."""

from __future__ import annotations

import dspy
from pydantic import BaseModel, Field


class QueryNode(BaseModel):
    """One node of a Chain-of-Query: an IR-oriented query and the LM's answer, or a flag that it has none."""

    query: str = Field(description="one simple question about a single fact, worded like a search query")
    answer: str | None = Field(default=None, description="a short sentence answering the query; null when unsolved")
    unsolved: bool = Field(default=False, description="true when you do not know the answer to this query")

    @property
    def answer_text(self) -> str:
        return (self.answer or "").strip()


class ChainOfQuery(dspy.Signature):
    """Plan a global reasoning chain for the question before answering it. Break the question into
    simple queries, each asking for one fact that a search engine could look up, in the order they
    must be solved; a later query may name the entity an earlier answer found. Answer each query if
    you know the answer. If you do not know it, mark the query unsolved, leave its answer empty, and
    still plan the queries after it. When the chain reaches the answer to the question, give it as
    final_answer; otherwise leave final_answer empty. When feedback from a reference is given, you
    may change your answer to the query it concerns in its light: start the new chain at that query,
    with your answer to it now, and continue from there to the question's answer."""

    question: str = dspy.InputField()
    feedback: list[str] = dspy.InputField(
        desc="earlier chains and what the references said about them; empty in the first round")
    chain: list[QueryNode] = dspy.OutputField(desc="the queries in solving order")
    final_answer: str = dspy.OutputField(desc="a short answer phrase, or empty if the chain has not reached it")


class TraceWithReferences(dspy.Signature):
    """Write the final answer to the question from the verified query-answer pairs. First write a
    short passage that walks through the reasoning, putting the reference mark [n] right after each
    fact taken from pair [n]; then give the short answer on its own: the thing the question asks
    for (for "where was ... born?", a place), usually found in the last pair."""

    question: str = dspy.InputField()
    verified_pairs: list[str] = dspy.InputField(desc="'[n] query -> answer' pairs; [n] is the supporting document")
    final_content: str = dspy.OutputField(desc="the reasoning, each fact followed by its reference mark [n]")
    answer: str = dspy.OutputField(desc="a short answer phrase (a name, a place, a year, or yes/no)")
