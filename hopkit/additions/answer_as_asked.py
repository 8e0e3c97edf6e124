"""The reader prompts' answer-form sentence (knob ``answer_as_asked``; an addition, off in ``paper``).

The papers' readers are told to answer the question; hopkit's also tell the 1.5B reader to answer in the
form the question asks for, since on HotpotQA dev100's first 50 questions it often answered a yes/no
question with the value it compared, and an either-or question with a third name.
"""

from __future__ import annotations

import dspy

SENTENCE = ("Answer the question as asked: yes or no when it asks yes or no, and one of the named options when it "
            "asks which of them.")


def with_answer_as_asked(signature: type[dspy.Signature], enabled: bool) -> type[dspy.Signature]:
    """The signature with the sentence at the end of its instructions when ``enabled``, else as it is."""
    if not enabled:
        return signature
    return signature.with_instructions(f"{signature.instructions.rstrip()} {SENTENCE}")
