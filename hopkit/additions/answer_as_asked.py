"""The reader prompts' answer-form sentence (knob ``answer_as_asked``; an addition, off in ``paper``).

The papers' readers are told to answer the question; hopkit's also tell the 1.5B reader (and SearChain's
planner and tracer, in their answer fields) to answer in the form the question asks for, since a small model
answers a yes/no question with the value it compared, and an either-or question with a third name
(docs/design/additions.md#answer_as_asked).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dspy

SENTENCE = ("Answer the question as asked: yes or no when it asks yes or no, and one of the named options when it "
            "asks which of them.")


def with_answer_as_asked(signature: type[dspy.Signature], enabled: bool) -> type[dspy.Signature]:
    """The signature with the sentence at the end of its instructions when ``enabled``, else as it is."""
    if not enabled:
        return signature
    return signature.with_instructions(f"{signature.instructions.rstrip()} {SENTENCE}")


# SearChain's answer fields as hopkit words them (the plain wording is in hopkit/signatures/searchain.py)
FIELD_DESCS = {
    "final_answer": "a short answer phrase, as the question asks it (yes or no for a yes/no question, one of the "
                    "named options for a which-of question), or empty if the chain has not reached it",
    "answer": "a short answer phrase (a name, a place, a year, or yes/no), as the question asks it: yes or no for a "
              "yes/no question, one of the named options for a which-of question",
}


def with_answer_form_field(signature: type[dspy.Signature], field: str, enabled: bool) -> type[dspy.Signature]:
    """The signature with hopkit's wording of its answer field when ``enabled``, else as it is."""
    return signature.with_updated_fields(field, desc=FIELD_DESCS[field]) if enabled else signature


def reader_as_asked(signature: type[dspy.Signature], knobs: Mapping[str, Any]) -> type[dspy.Signature]:
    """A reader's signature as a program with these knobs asks it (the sentence where the knob is on)."""
    return with_answer_as_asked(signature, bool(knobs.get("answer_as_asked")))


def field_as_asked(signature: type[dspy.Signature], field: str, knobs: Mapping[str, Any]) -> type[dspy.Signature]:
    """An answer field as a program with these knobs words it (hopkit's wording where the knob is on)."""
    return with_answer_form_field(signature, field, bool(knobs.get("answer_as_asked")))
