"""Knob values tuned on a real dataset's dev questions, taken when the user sets none: a measured default, as
the demonstrations' are (hopkit/programs/demo_source.py).

The IRCoT paper tunes its K (paragraphs per step, in {2, 4, 6, 8}) on each dataset's dev questions; a K enters
``MEASURED_KNOBS`` only where its lead over the declared default held on dev questions the choice never read
(docs/results.md). They apply in the ``hopkit`` profile; ``paper`` keeps the declared values, and a knob the user sets
(``--set``) always wins. The command line says on stderr which values it took and the run log records them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# (method, dataset family) -> knob values measured there, with the figures behind them in docs/results.md
MEASURED_KNOBS: dict[tuple[str, str], dict[str, Any]] = {}


def dataset_family(dataset_name: str | None) -> str:
    """``musique`` for ``musique:validation`` (or ``musique:validation@/path/dev.jsonl``)."""
    return (dataset_name or "").split("@")[0].split(":")[0]


def measured_knobs(method: str, dataset_name: str | None, profile: str,
                   given: Mapping[str, Any]) -> dict[str, Any]:
    """The measured values for this method on this dataset that the user did not set; empty in the paper profile
    and where nothing was measured."""
    if profile != "hopkit":
        return {}
    measured = MEASURED_KNOBS.get((method, dataset_family(dataset_name)), {})
    return {name: value for name, value in measured.items() if name not in given}
