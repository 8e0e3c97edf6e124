"""The base of a program with knobs: its resolved knobs (``self.knobs``) also read as its attributes, so that
``program.k`` is the value the program runs with, as it was before knobs were held in one object."""

from __future__ import annotations

from typing import Any

import dspy


class KnobbedProgram(dspy.Module):
    def __getattr__(self, name: str) -> Any:  # only reached when normal lookup fails
        knobs = self.__dict__.get("knobs")
        if knobs is not None and not name.startswith("_") and name in knobs:
            return knobs[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
