"""Each paper's tuning grid, as data, checked against the knobs' declared ranges.

IRCoT (section 4) tunes K in {2, 4, 6, 8} and M in {1, 2, 3} on 100 dev questions a dataset, and picks the reader
(Direct or CoT prompting, appendix A) by dev F1; it tunes OneR's K in {5, ..., 15}. ``reproduce`` fixes M at its
paper value unless asked for the wide grid, as a CPU cannot afford the 24-setting product. SearChain and ToR report
one fixed setting, so they have no grid: the tune split is not used, and the paper's values are scored on test.
"""

from __future__ import annotations

from typing import Any

from hopkit.errors import InputError
from hopkit.knobs import KNOBS
from hopkit.programs.registry import get_method

GRIDS: dict[str, dict[str, list[Any]]] = {
    "ircot": {"k": [2, 4, 6, 8], "answer_reader": ["direct", "cot"]},
    "oner": {"k": [5, 7, 9, 11, 13, 15]},
}
WIDE: dict[str, dict[str, list[Any]]] = {"ircot": {"m_distractors": [1, 2, 3]}}


def paper_grid(method: str, wide: bool = False) -> dict[str, list[Any]]:
    """The grid ``reproduce`` searches for a method (empty: the paper's fixed setting); ``wide`` adds IRCoT's M."""
    group = get_method(method).knob_group or ""
    grid = dict(GRIDS.get(group, {}))
    if group == "ircot" and method != "ircot":  # ircot-direct and ircot-noreader fix their reader
        grid.pop("answer_reader")
    if wide:
        grid.update(WIDE.get(group, {}))
    return check_grid(method, grid)


def check_grid(method: str, grid: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Every value checked as a user's value is (name, type, range): a grid value outside a knob's range is
    refused before anything runs."""
    group = get_method(method).knob_group or ""
    declared = KNOBS.get(group, {})
    checked = {}
    for name, values in grid.items():
        if name not in declared:
            raise InputError(f"the {method} grid names {name!r}, which is not one of its knobs")
        if not values:
            raise InputError(f"the {method} grid gives {name!r} no values")
        checked[name] = [declared[name].check(value) for value in values]
    return checked

