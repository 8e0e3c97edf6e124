"""What stands in, in the ``paper`` profile, where hopkit cannot do what the paper did; a paper-profile trace
lists these under ``stands_in`` (the README says the same, under "Profiles")."""

from __future__ import annotations

from typing import Any

STAND_INS: dict[str, tuple[str, ...]] = {
    "oner": (),
    "ircot": ("the reason step is a chat signature that gets the chain as an input, standing in for the paper's text "
              "continuation; sentences it writes out again are skipped (skip_restated)",),
    "searchain": ("the reader's confidence stands in for DPR's relevance score, and theta left unset is the reader's "
                  "calibrated value (the paper tuned theta for DPR)",),
    "tor": ("with no path accepted the reader reads the paths reviewed as relevant (the paper does not say)",),
}


def stand_ins(group: str, profile: str, **facts: Any) -> list[str]:
    """The stand-ins of a method in the ``paper`` profile (none in ``hopkit``), with the facts of this instance."""
    if profile != "paper":
        return []
    notes = list(STAND_INS.get(group, ()))
    notes += [f"{name}: {value}" for name, value in facts.items()]
    return notes
