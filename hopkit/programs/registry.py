"""Methods by name: what each needs (retriever, reader) and how it is built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dspy

from hopkit.errors import InputError, UnknownNameError
from hopkit.knobs import KNOBS
from hopkit.programs.baselines import NoR, OneR
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever


@dataclass(frozen=True)
class Method:
    name: str
    description: str
    knob_group: str | None
    needs_retriever: bool
    build: Callable[..., dspy.Module]
    needs_reader: bool = False


METHODS: dict[str, Method] = {
    m.name: m
    for m in [
        Method("nor", "no retrieval, direct answer", None, False, lambda r, rd, **kw: NoR("direct", **kw)),
        Method("nor-cot", "no retrieval, chain-of-thought answer", None, False, lambda r, rd, **kw: NoR("cot", **kw)),
        Method("oner", "one retrieval with the question, direct answer", "oner", True,
               lambda r, rd, **kw: OneR(r, reasoning="direct", **kw)),
        Method("oner-cot", "one retrieval with the question, chain-of-thought answer", "oner", True,
               lambda r, rd, **kw: OneR(r, reasoning="cot", **kw)),
    ]
}


def get_method(name: str) -> Method:
    if name not in METHODS:
        raise UnknownNameError("method", name, list(METHODS))
    return METHODS[name]


def build_program(name: str, retriever: Retriever | None = None, reader: Reader | None = None,
                  **knobs: Any) -> dspy.Module:
    """The named method over the given retriever and reader, with knob overrides validated."""
    method = get_method(name)
    declared = KNOBS.get(method.knob_group or "", {})
    unknown = sorted(set(knobs) - set(declared))
    if unknown:
        raise InputError(f"method {name!r} has no knob {', '.join(unknown)}; its knobs: {', '.join(declared) or 'none'}")
    if method.needs_retriever and retriever is None:
        raise InputError(f"method {name!r} needs a retriever")
    if method.needs_reader and reader is None:
        raise InputError(f"method {name!r} needs a reader")
    return method.build(retriever, reader, **{k: declared[k].check(v) for k, v in knobs.items()})
