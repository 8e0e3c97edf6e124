"""The LM reader's step: copy the shortest span of one paragraph that answers the question."""

from __future__ import annotations

import dspy

NO_ANSWER = "NONE"


class ExtractAnswerSpan(dspy.Signature):
    """Copy, character for character, the shortest span of the paragraph that answers the
    question: usually a name, a place, a date or a number of a few words, never a whole
    sentence. If the paragraph does not contain the answer, write NONE."""

    question: str = dspy.InputField()
    paragraph: str = dspy.InputField()
    span: str = dspy.OutputField(desc="a few words copied exactly from the paragraph, or NONE")


# Two worked examples about made-up things, shown before every paragraph: a span is copied even
# when the paragraph words the relation differently from the question ("created" / "a painting by").
SPAN_DEMOS = [
    dspy.Example(question="Who founded the Marlow Glassworks?",
                 paragraph="Wikipedia Title: Marlow Glassworks\nThe Marlow Glassworks is a glass factory in Denton. It "
                           "was founded by "
                           "Ada Pell in 1871 and closed in 1920.",
                 span="Ada Pell").with_inputs("question", "paragraph"),
    dspy.Example(question="Who created Low Tide at Orla?",
                 paragraph="Wikipedia Title: Low Tide at Orla\nLow Tide at Orla is an 1890 painting by Mira Hask. It "
                           "hangs in the Brisk Museum.",
                 span="Mira Hask").with_inputs("question", "paragraph"),
]


class JudgeAndExtract(dspy.Signature):
    """First decide whether the paragraph itself states the answer to the query. It does only when
    the paragraph says what the query asks for: a paragraph that merely mentions the query's names,
    or gives a different fact about them, does not answer it. Then copy, character for character, the
    shortest span of the paragraph that answers the query, or write NONE when it does not answer."""

    query: str = dspy.InputField()
    paragraph: str = dspy.InputField()
    answers: bool = dspy.OutputField(desc="true only if the paragraph states what the query asks for")
    span: str = dspy.OutputField(desc="a few words copied exactly from the paragraph, or NONE")


# Made-up worked examples, in contrasting pairs so that no query form decides the judgment by itself: the
# same "Where was X born?" form once answered (worded differently from the query) and once not (the paragraph
# names the person but states another fact); the same paragraph answering "Who created ...?" and not
# "Who published ...?". With a single "Where was X born?" example, and that one unanswered, the 1.5B reader
# judged every birthplace query unanswered, even for paragraphs stating "was born in Pythpur Crossing".
JUDGE_DEMOS = [
    dspy.Example(query="Who founded the Marlow Glassworks?",
                 paragraph="Wikipedia Title: Marlow Glassworks\nThe Marlow Glassworks is a glass factory in Denton. It "
                           "was founded by Ada Pell in 1871 and closed in 1920.",
                 answers=True, span="Ada Pell").with_inputs("query", "paragraph"),
    dspy.Example(query="Where was Ada Pell born?",
                 paragraph="Wikipedia Title: Ada Pell\nAda Pell was a glassmaker who founded the Marlow Glassworks in "
                           "1871. She ran it until her death.",
                 answers=False, span=NO_ANSWER).with_inputs("query", "paragraph"),
    dspy.Example(query="Where was Tam Orrin born?",
                 paragraph="Wikipedia Title: Tam Orrin\nTam Orrin (1802-1875) was a landscape painter. Born in the "
                           "fishing town of Halby, he later taught in Denton.",
                 answers=True, span="Halby").with_inputs("query", "paragraph"),
    dspy.Example(query="Who published Low Tide at Orla?",
                 paragraph="Wikipedia Title: Low Tide at Orla\nLow Tide at Orla is an 1890 painting by Mira Hask. It "
                           "hangs in the Brisk Museum.",
                 answers=False, span=NO_ANSWER).with_inputs("query", "paragraph"),
    dspy.Example(query="Who created Low Tide at Orla?",
                 paragraph="Wikipedia Title: Low Tide at Orla\nLow Tide at Orla is an 1890 painting by Mira Hask. It "
                           "hangs in the Brisk Museum.",
                 answers=True, span="Mira Hask").with_inputs("query", "paragraph"),
]
