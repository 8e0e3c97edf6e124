"""Dataset names on the command line: ``bundled:dev``, ``hotpotqa-distractor:validation[@file]``,
``ircot:/path.jsonl``, ``ircot-demos:/path.txt``."""

from __future__ import annotations

import json
from pathlib import Path

from hopkit.data.bundled.build import BUNDLED_VERSION, SPLITS, build_bundled
from hopkit.data.corpus import Corpus
from hopkit.data.examples import Dataset, make_example
from hopkit.data.hub_formats import HUB, load_hub
from hopkit.data.local_formats import load_ircot_demos, load_ircot_jsonl
from hopkit.errors import InputError, UnknownNameError
from hopkit.paths import data_dir

KINDS = ["bundled", "ircot", "ircot-demos", *HUB]


def bundled_dir() -> Path:
    return data_dir() / f"bundled-v{BUNDLED_VERSION}"


def ensure_bundled() -> Path:
    """Build the bundled benchmark on first use (a few seconds); later calls reuse it."""
    folder = bundled_dir()
    if not (folder / "manifest.json").is_file():
        build_bundled(folder)
    return folder


def load_bundled(split: str) -> Dataset:
    """``dev`` (multi-hop QA) or ``TASK:dev`` for a task split (fact-check, slot-filling, yes-no, long-form)."""
    from hopkit.data.bundled.task_questions import TASK_SPLITS

    task, _, split = split.rpartition(":")
    if task and task not in TASK_SPLITS:
        raise InputError(f"bundled has no task {task!r}; use one of {', '.join(TASK_SPLITS)} (e.g. bundled:fact-check:dev)")
    if split not in SPLITS:
        raise InputError(f"bundled split {split!r} does not exist; use one of {', '.join(SPLITS)}")
    folder = ensure_bundled()
    path = folder / "tasks" / f"{task}-{split}.jsonl" if task else folder / f"{split}.jsonl"
    examples = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            examples.append(make_example(row["qid"], row["question"], row["answers"], row["gold_pids"],
                                         type=row["type"], hop_queries=row["hop_queries"], chain=row["chain"]))
    name = f"bundled:{task}:{split}" if task else f"bundled:{split}"
    return Dataset(name, examples, Corpus.from_file(folder / "corpus.jsonl"), "bundled", task or "multihop-qa")


def load_dataset_spec(spec: str) -> Dataset:
    kind, _, rest = spec.partition(":")
    if kind not in KINDS:
        raise UnknownNameError("dataset", kind, KINDS)
    if kind == "bundled":
        return load_bundled(rest or "dev")
    if not rest:
        raise InputError(f"dataset {kind!r} needs more: e.g. {_example(kind)}")
    if kind == "ircot":
        return load_ircot_jsonl(Path(rest))
    if kind == "ircot-demos":
        return load_ircot_demos(Path(rest))
    split, _, local_file = rest.partition("@")
    return load_hub(kind, split, local_file or None)


def _example(kind: str) -> str:
    return {"ircot": "ircot:/path/hotpotqa_dev.jsonl", "ircot-demos": "ircot-demos:/path/hotpotqa.txt"}.get(
        kind, f"{kind}:validation or {kind}:validation@/path/rows.jsonl")
