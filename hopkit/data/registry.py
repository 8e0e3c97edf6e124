"""Dataset names on the command line: ``bundled:dev``, ``hotpotqa-distractor:validation[@file]``,
``ircot:/path.jsonl``, ``ircot-demos:/path.txt``, ``qa:QUESTIONS.jsonl@CORPUS.jsonl``, ``hopkit:wiki`` (hopkit's own
demonstrations)."""

from __future__ import annotations

import json
from pathlib import Path

from hopkit.data.bundled.build import BUNDLED_VERSION, SPLITS, build_bundled
from hopkit.data.corpus import Corpus
from hopkit.data.examples import Dataset, make_example
from hopkit.data.hub_formats import HUB, load_hub
from hopkit.data.local_formats import load_ircot_demos, load_ircot_jsonl, parse_ircot_demos
from hopkit.data.question_file import SPEC_HELP as QA_SPEC
from hopkit.data.question_file import load_question_file
from hopkit.data.wiki_demos import SETS as WIKI_SETS
from hopkit.data.wiki_demos import SPEC as WIKI_SPEC
from hopkit.data.wiki_demos import render as render_wiki_demos
from hopkit.errors import InputError, UnknownNameError
from hopkit.paths import data_dir
from hopkit.tasks import DEFAULT_TASK

KINDS = ["bundled", "ircot", "ircot-demos", "hopkit", "qa", *HUB]


def bundled_dir(paragraphs: int | None = None) -> Path:
    return data_dir() / (f"bundled-v{BUNDLED_VERSION}" + (f"-p{paragraphs}" if paragraphs else ""))


def ensure_bundled(paragraphs: int | None = None) -> Path:
    """Build the bundled benchmark on first use (seconds; minutes at 200k passages); later calls reuse it."""
    from hopkit.data.bundled.build import BundledSpec

    folder = bundled_dir(paragraphs)
    if not (folder / "manifest.json").is_file():
        build_bundled(folder, BundledSpec(paragraphs=paragraphs))
    return folder


def load_bundled(split: str) -> Dataset:
    """``dev`` (multi-hop QA) or ``TASK:dev`` for a task split (fact-check, slot-filling, yes-no, long-form);
    ``dev@50000`` for the world grown to 50,000 passages (``hopkit data build --paragraphs 50000``)."""
    from hopkit.data.bundled.task_questions import TASK_SPLITS

    split, _, size = split.partition("@")
    if size and not size.isdigit():
        raise InputError(f"bundled size {size!r} is not a number of passages (e.g. bundled:dev@50000)")
    paragraphs = int(size) if size else None
    task, _, split = split.rpartition(":")
    if task and task not in TASK_SPLITS:
        raise InputError(f"bundled has no task {task!r}; use one of {', '.join(TASK_SPLITS)} (e.g. "
                         "bundled:fact-check:dev)")
    if split not in SPLITS:
        raise InputError(f"bundled split {split!r} does not exist; use one of {', '.join(SPLITS)}")
    folder = ensure_bundled(paragraphs)
    path = folder / "tasks" / f"{task}-{split}.jsonl" if task else folder / f"{split}.jsonl"
    examples = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            examples.append(make_example(row["qid"], row["question"], row["answers"], row["gold_pids"],
                                         type=row["type"], hop_queries=row["hop_queries"], chain=row["chain"]))
    name = (f"bundled:{task}:{split}" if task else f"bundled:{split}") + (f"@{paragraphs}" if paragraphs else "")
    corpus_name = f"bundled-p{paragraphs}" if paragraphs else "bundled"
    return Dataset(name, examples, Corpus.from_file(folder / "corpus.jsonl"), corpus_name, task or DEFAULT_TASK)


def load_dataset_spec(spec: str) -> Dataset:
    """One dataset spec, or several joined with ``+`` over one corpus (their examples in order: a task's
    demonstrations first, then the multi-hop ones that fill the shapes its split lacks)."""
    dataset = _load_dataset_spec(spec)
    dataset.spec = spec
    return dataset


def _load_dataset_spec(spec: str) -> Dataset:
    parts = spec.split("+")
    if len(parts) > 1 and all(part.partition(":")[0] in KINDS for part in parts):
        return _joined([load_dataset_spec(part) for part in parts])
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
    if kind == "hopkit":
        return load_hopkit_demos(rest)
    if kind == "qa":
        return load_question_file(rest)
    split, _, local_file = rest.partition("@")
    return load_hub(kind, split, local_file or None)


def load_hopkit_demos(name: str) -> Dataset:
    """hopkit's own demonstration sets, shipped in the package: ``hopkit:wiki`` and ``hopkit:wiki-balanced``
    (hopkit/data/wiki_demos.py)."""
    if name not in WIKI_SETS:
        raise UnknownNameError("hopkit demonstration set", name, sorted(WIKI_SETS))
    spec = f"hopkit:{name}"
    return parse_ircot_demos(render_wiki_demos(WIKI_SETS[name]), spec, spec, f"demos-hopkit-{name}")


def _joined(datasets: list[Dataset]) -> Dataset:
    first = datasets[0]
    for other in datasets[1:]:
        if first.corpus is None or other.corpus is None or other.corpus.fingerprint() != first.corpus.fingerprint():
            raise InputError(f"{first.name} and {other.name} are answered over different corpora: join (+) only "
                             "datasets of one corpus, e.g. bundled:fact-check:train+bundled:train")
    # each example keeps the rank of the dataset it came from, so that a builder that reorders its pool (IRCoT's
    # shuffle and round robin) still fills its demonstrations from the first dataset before the next
    examples = [example.copy(demo_rank=rank) for rank, dataset in enumerate(datasets) for example in dataset.examples]
    return Dataset("+".join(d.name for d in datasets), examples, first.corpus, first.corpus_name, first.task)


def _example(kind: str) -> str:
    return {"ircot": "ircot:/path/hotpotqa_dev.jsonl", "ircot-demos": "ircot-demos:/path/hotpotqa.txt",
            "hopkit": WIKI_SPEC, "qa": QA_SPEC}.get(
        kind, f"{kind}:validation or {kind}:validation@/path/rows.jsonl")
