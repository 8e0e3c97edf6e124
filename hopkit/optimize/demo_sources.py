"""Where each demonstration of an optimized program came from: a train question (by its id), labelled from the
data or bootstrapped from the program's own successful trace on it, or no question of any split (a hop query or
a written example). A demonstration that shows a dev or test question is flagged, and the optimizer refuses it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dspy

from hopkit.errors import InputError
from hopkit.text.normalize import normalize_answer


def _key(text: Any) -> str:
    return normalize_answer(str(text or ""))


def demo_sources(state: dict[str, Any], train: Sequence[dspy.Example], held_out: Sequence[dspy.Example] = ()
                 ) -> list[dict[str, Any]]:
    """One record per demonstration: predictor, position, source (bootstrapped / labeled / not a split question)
    and the train question's id; ``held_out`` (dev and test) questions are marked."""
    train_ids = {_key(ex.question): str(ex.qid) for ex in train}
    held = {_key(ex.question): str(ex.qid) for ex in held_out}
    records = []
    for predictor, value in state.items():
        for position, demo in enumerate((value or {}).get("demos") or [] if isinstance(value, dict) else []):
            question = _key(demo.get("question")) if isinstance(demo, dict) else ""
            record = {"predictor": predictor, "position": position,
                      "source": "bootstrapped" if isinstance(demo, dict) and demo.get("augmented") else "labeled"}
            if question in train_ids:
                record["train_qid"] = train_ids[question]
            elif question in held:
                record["held_out_qid"] = held[question]
            else:
                record["source"] += " (no split question: a hop query or a written example)"
            records.append(record)
    return records


def refuse_held_out(records: list[dict[str, Any]]) -> None:
    shown = [r for r in records if "held_out_qid" in r]
    if shown:
        raise InputError(f"{len(shown)} demonstrations show a dev or test question (e.g. {shown[0]['held_out_qid']} in "
                         f"{shown[0]['predictor']}): demonstrations must come from train only")
