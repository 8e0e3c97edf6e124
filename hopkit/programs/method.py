"""What the registry knows of a method: its name, what it needs, how it is built, and the views of its trace.

Each method's folder declares its own (``hopkit/programs/<m>/method.py``: its registry entries and its papers'
ablations); a method of a user's is one ``hopkit.register_method(...)`` line (docs/extending.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import dspy

from hopkit.programs.views import NO_VIEWS, TraceViews


@dataclass(frozen=True)
class Method:
    """``build(retriever, reader, train, profile=..., **knobs)`` returns the program; ``knob_group`` names its knobs
    (hopkit/knobs/declared.py, or those it was registered with)."""

    name: str
    description: str
    knob_group: str | None
    needs_retriever: bool
    build: Callable[..., dspy.Module]
    needs_reader: bool = False
    uses_demos: bool = False
    # a baseline that reads with IRCoT's few-shot reader as the IRCoT paper's do: demonstrations under the paper
    # profile (or when the user names a source), zero-shot by default under hopkit's
    reader_demos_only: bool = False
    views: TraceViews = NO_VIEWS  # what the harness, report and analyses read from its trace
