"""What IR tells the LM between rounds, in the project's words (the paper's templates carry the same facts)."""

from __future__ import annotations

from hopkit.data.passage import Passage

_CONTINUE = ("Start the new chain with that query, answered, then add every query still needed to reach the "
             "answer to the question.")


def correction(question: str, query: str, reader_answer: str, document: Passage, max_words: int) -> str:
    return (f'From the reference, the answer to "{query}" should be "{reader_answer}". You may change your answer, '
            f"and go on building the reasoning chain for the question: {question}\n"
            f"Reference: {document.as_context(max_words)}\n{_CONTINUE}")


def completion(question: str, query: str, reader_answer: str, document: Passage, max_words: int) -> str:
    found = (f'From the reference, the answer to "{query}" should be "{reader_answer}"' if reader_answer
             else f'The reference may answer "{query}"')
    return (f"{found}. You may give your answer to that query, and go on building the reasoning chain for the "
            f"question: {question}\nReference: {document.as_context(max_words)}\n{_CONTINUE}")


def unreadable(question: str) -> str:
    return ("Your last chain could not be read. Write the chain as a list of queries, each with its answer "
            f"or marked unsolved, for the question: {question}")


def decompose(question: str) -> str:
    """An addition to the paper (knob decompose_retry): asked once when the first chain only restated the question."""
    return ("Your chain asked the whole question as a single query. Break the question into simple queries, each "
            "asking for one fact a search engine could look up (for a comparison, one query per thing compared), "
            f"answer each one you know and mark the others unsolved, for the question: {question}")


def previous_chain(round_: int, rendered: str) -> str:
    return f"Your chain in round {round_}:\n{rendered}"
