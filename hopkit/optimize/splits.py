"""The optimizer's three splits: train (demonstrations), dev (the study) and test (judged once, never seen by the
study), each a dataset spec with an optional question range, ``SPEC[A-B]`` (1-based, inclusive):

    --train musique:train@train100.jsonl --dev "musique:validation@dev100.jsonl[1-50]"
    --test "musique:validation@dev100.jsonl[51-100]"

Splits that share a question are refused: a setting tuned on a question, or a demonstration built from it, must
not be judged on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import dspy

from hopkit.data.examples import Dataset
from hopkit.errors import InputError

_RANGE = re.compile(r"^(?P<spec>.+)\[(?P<first>\d+)-(?P<last>\d+)\]$")


def split_spec(text: str) -> tuple[str, tuple[int, int] | None]:
    """``SPEC[A-B]`` -> (SPEC, (A, B)); a spec without a range -> (SPEC, None)."""
    match = _RANGE.match(text.strip())
    if not match:
        if text.strip().endswith("]") and "[" in text:
            raise InputError(f"a question range is [A-B] with 1 <= A <= B (e.g. [1-50]), got {text!r}")
        return text.strip(), None
    first, last = int(match["first"]), int(match["last"])
    if not 1 <= first <= last:
        raise InputError(f"a question range is [A-B] with 1 <= A <= B (e.g. [1-50]), got {text!r}")
    return match["spec"], (first, last)


def in_range(examples: Sequence[dspy.Example], span: tuple[int, int] | None, name: str,
             limit: int | None = None) -> list[dspy.Example]:
    """The range's questions (all when none is given), then at most ``limit`` of them."""
    if span is not None:
        first, last = span
        if first > len(examples):
            raise InputError(f"{name} range [{first}-{last}]: the dataset has {len(examples)} questions")
        examples = examples[first - 1:last]
    return list(examples[:limit] if limit else examples)


def refuse_overlap(splits: Mapping[str, Sequence[dspy.Example]]) -> None:
    """Refuse two splits that share a question (the same id and question text)."""
    names = [name for name, examples in splits.items() if examples]
    seen = {name: {(str(ex.qid), ex.question) for ex in splits[name]} for name in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            shared = seen[a] & seen[b]
            if shared:
                example = sorted(shared)[0]
                raise InputError(f"the {a} and {b} splits share {len(shared)} questions (e.g. {example[0]}: "
                                 f"{example[1][:60]!r}); give them disjoint ranges, e.g. [1-50] and [51-100]")


def load_splits(train: str | None, dev: str, test: str | None, load: Callable[[str], Dataset],
                n_dev: int | None = None, n_test: int | None = None
                ) -> tuple[Dataset | None, Dataset, dict[str, list[dspy.Example]]]:
    """The train dataset (cut to its range), the dev dataset, and each split's questions; overlaps refused."""
    specs = {"train": split_spec(train) if train else None, "dev": split_spec(dev),
             "test": split_spec(test) if test else None}
    limits = {"train": None, "dev": n_dev, "test": n_test}
    loaded: dict[str, Dataset] = {}
    picked: dict[str, list[dspy.Example]] = {}
    for name, spec in specs.items():
        if spec is None:
            picked[name] = []
            continue
        loaded[name] = load(spec[0])
        picked[name] = in_range(loaded[name].examples, spec[1], name, limits[name])
    refuse_overlap(picked)
    train_data = loaded.get("train")
    train_spec = specs["train"]
    if train_data is not None and train_spec is not None and train_spec[1] is not None:
        train_data = replace(train_data, examples=picked["train"])
    return train_data, loaded["dev"], picked
