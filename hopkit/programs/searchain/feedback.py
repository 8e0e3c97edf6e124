"""What IR tells the LM between rounds, in the project's words (the paper's templates carry the same facts)."""

from __future__ import annotations

from hopkit.data.passage import Passage

_CONTINUE = ("Start the new chain with that query, answered, then add every query still needed to reach the "
             "answer to the question.")


def correction(question: str, query: str, reader_answer: str, document: Passage, max_words: int) -> str:
    return (f'The reference says the answer to "{query}" is "{reader_answer}". Change your answer if it differs '
            f"and keep building the reasoning chain for the question: {question}\n"
            f"Reference: {document.as_context(max_words)}\n{_CONTINUE}")


def completion(question: str, query: str, reader_answer: str, document: Passage, max_words: int) -> str:
    found = f'the answer to "{query}" is "{reader_answer}"' if reader_answer else f'it may answer "{query}"'
    return (f"The reference says {found}. Give your answer to that query and keep building the reasoning "
            f"chain for the question: {question}\nReference: {document.as_context(max_words)}\n{_CONTINUE}")


def unreadable(question: str) -> str:
    return ("Your last chain could not be read. Write the chain as a list of queries, each with its answer "
            f"or marked unsolved, for the question: {question}")


def previous_chain(round_: int, rendered: str) -> str:
    return f"Your chain in round {round_}:\n{rendered}"
