"""The demonstrations a command builds a program from: the spec ``--demos-from`` names, resolved for the method
and the dataset (hopkit/programs/demo_source.py), and loaded. A train split that ``auto`` chose for the user (a
measured default) and that cannot be loaded, e.g. offline with no stored copy (``hopkit data add``), is no error:
the command says so on stderr and takes the next measured source, else runs zero-shot, and the run's metadata
records it."""

from __future__ import annotations

import sys

from hopkit.data.examples import Dataset
from hopkit.errors import MissingArtifactError


def load_demonstrations(spec: str | None, dataset_name: str | None, method: str) -> tuple[Dataset | None, str]:
    """(the train dataset or None for zero-shot, what the run's metadata records as its demonstrations)."""
    from hopkit.programs.demo_source import default_sources, is_measured_default, resolve_demos_from

    source = resolve_demos_from(spec, dataset_name, method)
    if source is None:
        return None, "none"
    if not is_measured_default(spec, dataset_name, method):
        return _loaded(source)
    unavailable = []
    for source in default_sources(dataset_name, method):
        try:
            return _loaded(source)
        except MissingArtifactError as error:
            print(f"note: {method} on {dataset_name} defaults to demonstrations from {source} (they scored higher "
                  f"than zero-shot; docs/results.md), which could not be loaded: {error}. Pass --demos-from "
                  f"{source}@/path/train.jsonl, or store them once with `hopkit data add {source} --from "
                  f"/path/train.jsonl`, to use them; --demos-from none silences this.", file=sys.stderr)
            unavailable.append(source)
    print(f"note: {method} on {dataset_name} runs zero-shot.", file=sys.stderr)
    return None, f"none ({', '.join(unavailable)} unavailable)"


def _loaded(source: str) -> tuple[Dataset, str]:
    """The source's dataset, and the source as named, with where its rows were read when a stored copy stood in
    for the hub."""
    from hopkit.data.registry import load_dataset_spec

    train = load_dataset_spec(source)
    return train, f"{source} (stored copy {train.stored_copy})" if train.stored_copy else source
