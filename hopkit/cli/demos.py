"""The demonstrations a command builds a program from: the spec ``--demos-from`` names, resolved for the method,
the dataset and the profile (hopkit/programs/demo_source.py), and loaded. A source that ``auto`` chose (a train
split) and that cannot be loaded, e.g. offline with no stored copy (``hopkit data add``), is no error: the command
says so on stderr and takes the next, else runs zero-shot, and the run's metadata records that zero-shot stood in."""

from __future__ import annotations

import sys

from hopkit.data.examples import Dataset
from hopkit.errors import MissingArtifactError


def load_demonstrations(spec: str | None, dataset_name: str | None, method: str,
                        profile: str = "hopkit") -> tuple[Dataset | None, str]:
    """(the train dataset or None for zero-shot, what the run's metadata records as its demonstrations)."""
    from hopkit.programs.demo_source import PAPER, default_sources, is_automatic, resolve_demos_from

    source = resolve_demos_from(spec, dataset_name, method, profile)
    if source is None:
        return None, "none"
    if not is_automatic(spec, dataset_name, method, profile):
        return _loaded(source)
    why = "the paper profile is few-shot, as the paper" if profile == PAPER else \
        "they scored higher than zero-shot; docs/results.md"
    unavailable = []
    for source in default_sources(dataset_name, method, profile):
        try:
            return _loaded(source)
        except MissingArtifactError as error:
            print(f"note: {method} on {dataset_name} takes demonstrations from {source} ({why}), which could not be "
                  f"loaded: {error}. Pass --demos-from {source}@/path/train.jsonl (or the IRCoT authors' file, "
                  f"--demos-from ircot-demos:FILE), or store them once with `hopkit data add {source} --from "
                  f"/path/train.jsonl`; --demos-from none silences this.", file=sys.stderr)
            unavailable.append(source)
    print(f"note: {method} on {dataset_name} runs zero-shot.", file=sys.stderr)
    return None, f"none ({', '.join(unavailable)} unavailable)"


def _loaded(source: str) -> tuple[Dataset, str]:
    """The source's dataset, and the source as named, with where its rows were read when a stored copy stood in
    for the hub."""
    from hopkit.data.registry import load_dataset_spec

    train = load_dataset_spec(source)
    return train, f"{source} (stored copy {train.stored_copy})" if train.stored_copy else source
