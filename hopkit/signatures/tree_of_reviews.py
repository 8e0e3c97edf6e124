"""Tree of Reviews' LM steps: review the paragraphs on a path, complete a missing paragraph, fuse evidence."""

from __future__ import annotations

import dspy

_REVIEW = """You review the paragraphs found so far for a multi-hop question; read them as one whole.
    First judge relevance: relevant is true if the paragraphs hold any information that gets closer
    to the answer, even one hop of it; false only if nothing in them helps. Then judge sufficiency:
    sufficient is true only if the paragraphs hold every fact needed to answer; if any fact is
    missing, it is false. Last, if sufficient, answer the question from the paragraphs in one or
    two sentences; otherwise write a new search query for the missing fact."""


_ANSWER = "the short answer (a name, a place, a year, or yes/no) if sufficient, else empty"
_OUTPUT = "the answer with its reasoning if sufficient, else a new search query for the missing fact"


class ReviewParagraphs(dspy.Signature):  # the paper's review without thoughts (its Table 8: Direct expansion)
    __doc__ = _REVIEW

    question: str = dspy.InputField()
    paragraphs: list[str] = dspy.InputField(desc="the paragraphs on the path, each starting with its title")
    relevant: bool = dspy.OutputField()
    sufficient: bool = dspy.OutputField()
    output: str = dspy.OutputField(desc=_OUTPUT)
    answer: str = dspy.OutputField(desc=_ANSWER)


class ReviewParagraphsReasoned(dspy.Signature):
    __doc__ = _REVIEW + """ Before judging, write the reasoning: the chain of facts from the
    paragraphs that leads to the answer, or, where the chain breaks, the facts still missing. Judge
    from that reasoning: sufficient only if it reaches the answer using the paragraphs alone."""

    question: str = dspy.InputField()
    paragraphs: list[str] = dspy.InputField(desc="the paragraphs on the path, each starting with its title")
    reasoning: str = dspy.OutputField(desc="the reasoning path through the paragraphs, or the facts still missing")
    relevant: bool = dspy.OutputField()
    sufficient: bool = dspy.OutputField()
    output: str = dspy.OutputField(desc=_OUTPUT)
    answer: str = dspy.OutputField(desc=_ANSWER)


class ReviewParagraphsStepByStep(dspy.Signature):
    __doc__ = _REVIEW + """ Before each judgment, think in a few words: why the paragraphs help or
    not; which facts are there and which are missing; what the missing fact is, so the query asks
    for exactly that."""

    question: str = dspy.InputField()
    paragraphs: list[str] = dspy.InputField(desc="the paragraphs on the path, each starting with its title")
    relevance_thought: str = dspy.OutputField()
    relevant: bool = dspy.OutputField()
    sufficiency_thought: str = dspy.OutputField(desc="the reasoning path if complete, else the facts still missing")
    sufficient: bool = dspy.OutputField()
    next_thought: str = dspy.OutputField(desc="whether you can answer now, or what extra information is needed")
    output: str = dspy.OutputField(desc=_OUTPUT)
    answer: str = dspy.OutputField(desc=_ANSWER)


class WriteSearchQuery(dspy.Signature):
    """The paragraphs do not yet answer the question. Write one search query for the fact that is
    still missing: name the thing it is about and ask for that one fact. Never repeat the question."""

    question: str = dspy.InputField()
    paragraphs: list[str] = dspy.InputField(desc="the paragraphs found so far, each starting with its title")
    missing: str = dspy.InputField(desc="what the review found missing, if it said")
    query: str = dspy.OutputField(desc="one short search query")


class CompleteMissingParagraph(dspy.Signature):
    """The references lack information the question needs. Work out what is missing, write that
    missing information yourself as a short paragraph from your own knowledge, then answer."""

    question: str = dspy.InputField()
    references: list[str] = dspy.InputField(desc="the paragraphs found so far")
    missing_information: str = dspy.OutputField(desc="a short paragraph stating the missing facts")
    answer: str = dspy.OutputField()


_FUSION_TAIL = """ Reason in a few sentences, then give the short answer (a name, a place, a
    year, or yes/no)."""


class AnswerFromAnalyses(dspy.Signature):
    __doc__ = """Answer the question from the assertions, each a short analysis reached on one
    search path. They may conflict: weigh them all, and your own knowledge, to decide.""" + _FUSION_TAIL

    assertions: list[str] = dspy.InputField()
    question: str = dspy.InputField()
    response: str = dspy.OutputField()
    answer: str = dspy.OutputField(desc="a short phrase")


class AnswerFromParagraphs(dspy.Signature):
    __doc__ = """Answer the question from the paragraphs. If they do not hold enough to answer,
    answer from your own knowledge.""" + _FUSION_TAIL

    paragraphs: list[str] = dspy.InputField(desc="each starting with its title")
    question: str = dspy.InputField()
    response: str = dspy.OutputField()
    answer: str = dspy.OutputField(desc="a short phrase")


class AnswerFromEvidence(dspy.Signature):
    __doc__ = """Answer the question from the evidence. Each piece of evidence is an assertion
    about the question with the paragraphs that support it. Assertions may conflict: use all the
    evidence, its paragraphs, and your own knowledge to decide.""" + _FUSION_TAIL

    evidence: list[str] = dspy.InputField(desc="'Assertion: ... Paragraphs: ...' per piece")
    question: str = dspy.InputField()
    response: str = dspy.OutputField()
    answer: str = dspy.OutputField(desc="a short phrase")
