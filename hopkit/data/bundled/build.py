"""Write the bundled benchmark (corpus, splits, retriever triples, manifest) to a folder."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path

from hopkit.data.bundled.paragraphs import write_paragraphs
from hopkit.data.bundled.questions import Question, ask_questions
from hopkit.data.bundled.task_questions import TASK_SPLITS, ask_task_questions
from hopkit.data.bundled.world import World, WorldSize, build_world
from hopkit.data.corpus import Corpus

BUNDLED_VERSION = 3  # 2: questions carry a reasoning chain; 3: task splits (the earlier files are unchanged)
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class BundledSpec:
    seed: int = 13
    train: int = 1000
    dev: int = 300
    test: int = 300
    task_train: int = 300  # per task (fact-check, slot-filling, yes-no, long-form)
    task_dev: int = 100
    task_test: int = 100
    paragraphs: int | None = None  # grow the world to this many passages (default: 2,804); questions as before


def build_bundled(folder: Path, spec: BundledSpec = BundledSpec()) -> Path:
    """Generate everything from ``spec.seed``; identical seeds give identical files."""
    rng = random.Random(spec.seed)
    world = build_world(rng, WorldSize().scaled(spec.paragraphs) if spec.paragraphs else WorldSize())
    corpus = Corpus(write_paragraphs(world, rng))
    questions = ask_questions(world, rng, spec.train + spec.dev + spec.test)
    splits = {"train": questions[: spec.train],
              "dev": questions[spec.train: spec.train + spec.dev],
              "test": questions[spec.train + spec.dev:]}
    folder.mkdir(parents=True, exist_ok=True)
    corpus.write_jsonl(folder / "corpus.jsonl")
    for name, rows in splits.items():
        _write_jsonl(folder / f"{name}.jsonl", [q.to_dict() for q in rows])
    triples = _triples(splits["train"], world, rng)
    _write_jsonl(folder / "triples.jsonl", triples)
    task_counts = {}
    for task in TASK_SPLITS:  # each from its own generator: the files above do not change
        rows = ask_task_questions(world, spec.seed, task, spec.task_train + spec.task_dev + spec.task_test)
        parts = {"train": rows[: spec.task_train], "dev": rows[spec.task_train: spec.task_train + spec.task_dev],
                 "test": rows[spec.task_train + spec.task_dev:]}
        for name, part in parts.items():
            _write_jsonl(folder / "tasks" / f"{task}-{name}.jsonl", [q.to_dict() for q in part])
        task_counts[task] = {k: len(v) for k, v in parts.items()}
    manifest = {"version": BUNDLED_VERSION, "spec": asdict(spec), "passages": len(corpus),
                "questions": {k: len(v) for k, v in splits.items()}, "task_questions": task_counts,
                "triples": len(triples),
                "corpus_sha256": corpus.fingerprint()}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2))  # written last: marks a complete build
    return folder


def _triples(train: list[Question], world: World, rng: random.Random) -> list[dict]:
    """(query, positive pid, hard negative pid): the negative is a look-alike of the positive."""
    families: dict[tuple[str, str], list[str]] = {}
    for entity in world.all():
        families.setdefault((entity.kind, entity.family), []).append(entity.pid)
    kind_of = {e.pid: (e.kind, e.family) for e in world.all()}
    same_kind: dict[str, list[str]] = {}
    for entity in world.all():
        same_kind.setdefault(entity.kind, []).append(entity.pid)
    rows = []
    for q in train:
        for query, positive in [(q.question, q.gold_pids[0])] + list(zip(q.hop_queries, q.gold_pids)):
            look_alikes = [p for p in families[kind_of[positive]] if p != positive and p not in q.gold_pids]
            negative = rng.choice(look_alikes) if look_alikes else rng.choice(same_kind[kind_of[positive][0]])
            if negative != positive:
                rows.append({"query": query, "positive": positive, "negative": negative})
    return rows


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(path)
