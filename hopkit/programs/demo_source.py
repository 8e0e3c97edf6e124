"""Where a program's in-context demonstrations come from, when the user does not say (``--demos-from auto``).

- Under the ``paper`` profile, every method is few-shot as its paper was, from the evaluated dataset's own train
  split (MuSiQue's decompositions, 2Wiki's evidences, HotpotQA's supporting sentences become chains), or the
  IRCoT authors' files where the user names them (``--demos-from ircot-demos:FILE``). NoR and OneR read with
  IRCoT's few-shot reader, as in the IRCoT paper.
- Under ``hopkit``'s, a real dataset gets the source measured to help that method there (``MEASURED_DEFAULTS``,
  docs/results.md) and is zero-shot elsewhere; NoR and OneR are zero-shot.
- The bundled benchmark takes its own train split (for a task split, the task's train split first, then
  bundled:train for the shapes that split lacks), so that no fictional-world names reach real questions' prompts.

When an automatic source cannot be loaded (a train split offline, with no stored copy), the command line says so on
stderr and takes the next, then zero-shot, and the run's metadata records it (``load_demonstrations``). A question is
never shown its own example (hopkit/programs/own_example.py).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from hopkit.errors import HubUnavailableError, MissingArtifactError

if TYPE_CHECKING:
    from hopkit.data.examples import Dataset

AUTO = "auto"
ZERO_SHOT = "none"
IN_DOMAIN = "in-domain"
BUNDLED_TRAIN = "bundled:train"
PAPER = "paper"
# the hub train split whose chains give a real dataset's in-domain demonstrations (hopkit/data/hub_formats.py)
TRAIN_SPLITS = {"musique": "musique:train", "2wikimultihopqa": "2wikimultihopqa:train",
                "hotpotqa-distractor": "hotpotqa-distractor:train", "hotpotqa-fullwiki": "hotpotqa-distractor:train"}
# (method, dataset family) -> the demonstrations that led zero-shot for that method there under hopkit's profile,
# on questions the choice did not read (docs/results.md), best first: ``auto`` takes the first that loads
MEASURED_DEFAULTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("ircot", "musique"): ("musique:train",),
}


def default_sources(dataset_name: str | None, method: str | None, profile: str = "hopkit") -> tuple[str, ...]:
    """What ``auto`` tries for a method on a real dataset, in order; empty: zero-shot."""
    family = dataset_family(dataset_name)
    if profile == PAPER:
        return (TRAIN_SPLITS[family],) if method and family in TRAIN_SPLITS else ()
    return MEASURED_DEFAULTS.get((method or "", family), ())


def resolve_demos_from(spec: str | None, dataset_name: str | None, method: str | None = None,
                       profile: str = "hopkit") -> str | None:
    """The dataset spec to build demonstrations from, or None for zero-shot. ``auto`` on a real dataset depends on
    the method and the profile (``load_demonstrations`` falls back along ``default_sources``); without a method it is
    zero-shot."""
    spec = (spec or AUTO).strip()
    if spec == ZERO_SHOT:
        return None
    if spec == IN_DOMAIN:
        return in_domain_source(dataset_name)
    if spec != AUTO:
        return spec
    if profile != PAPER and _reads_zero_shot_by_default(method):
        return None
    if dataset_name and dataset_name.startswith("bundled:"):
        task = _bundled_task(dataset_name)
        return f"bundled:{task}:train+{BUNDLED_TRAIN}" if task else BUNDLED_TRAIN
    sources = default_sources(dataset_name, method, profile)
    return sources[0] if sources else None


def is_automatic(spec: str | None, dataset_name: str | None, method: str | None, profile: str = "hopkit") -> bool:
    """Whether ``auto`` chose demonstrations for this method on a real dataset (a choice the user did not make)."""
    return (spec or AUTO).strip() == AUTO and bool(default_sources(dataset_name, method, profile)) and not (
        profile != PAPER and _reads_zero_shot_by_default(method))


def dataset_family(dataset_name: str | None) -> str:
    """``musique`` for ``musique:validation`` (or ``musique:validation@/path/dev.jsonl``)."""
    return (dataset_name or "").split("@")[0].split(":")[0]


def _reads_zero_shot_by_default(method: str | None) -> bool:
    from hopkit.programs.registry import METHODS

    return bool(method in METHODS and METHODS[method].reader_demos_only)


def _bundled_task(dataset_name: str) -> str | None:
    """``fact-check`` for ``bundled:fact-check:dev`` (or ``...:dev@50000``); None for the multi-hop splits."""
    parts = dataset_name.split("@")[0].split(":")
    return parts[1] if len(parts) == 3 else None


def in_domain_source(dataset_name: str | None) -> str:
    """The train split of the evaluated dataset's family, for ``--demos-from in-domain``."""
    from hopkit.errors import InputError

    family = (dataset_name or "").split(":")[0]
    if family == "bundled":
        return resolve_demos_from(AUTO, dataset_name)  # type: ignore[return-value]
    if family not in TRAIN_SPLITS:
        raise InputError(f"no known train split for {dataset_name!r}: pass --demos-from SPEC (e.g. "
                         "ircot-demos:/path/hotpotqa.txt or musique:train@/path/train.jsonl)")
    return TRAIN_SPLITS[family]


def load_demonstrations(spec: str | None, dataset_name: str | None, method: str,
                        profile: str = "hopkit") -> tuple[Dataset | None, str]:
    """(the train dataset or None for zero-shot, what the run's metadata records as its demonstrations)."""
    source = resolve_demos_from(spec, dataset_name, method, profile)
    if source is None:
        _refuse_silent_zero_shot(spec, dataset_name, method, profile)
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
            cause = f" ({error.reason})." if isinstance(error, HubUnavailableError) else f": {error}."
            print(f"note: {method} on {dataset_name} takes demonstrations from {source} ({why}), which could not be "
                  f"loaded{cause} Pass --demos-from {source}@/path/train.jsonl (or the IRCoT authors' file, "
                  f"--demos-from ircot-demos:FILE), or store them once with `hopkit data add {source} --from "
                  f"/path/train.jsonl`; --demos-from none silences this.", file=sys.stderr)
            unavailable.append(source)
    print(f"note: {method} on {dataset_name} runs zero-shot.", file=sys.stderr)
    return None, f"none ({', '.join(unavailable)} unavailable)"


def _refuse_silent_zero_shot(spec: str | None, dataset_name: str | None, method: str, profile: str) -> None:
    """Under ``paper`` a few-shot method on a dataset with no known train split would run zero-shot unlike its paper:
    that is refused, so a zero-shot run is always asked for (``none``) and recorded as such."""
    from hopkit.errors import InputError
    from hopkit.programs.registry import METHODS

    if profile != PAPER or not dataset_name or (spec or AUTO).strip() != AUTO or method not in METHODS or \
            not METHODS[method].uses_demos:
        return
    raise InputError(f"{method} under the paper profile is few-shot, as its paper, but {dataset_name} has no train "
                     "split hopkit knows to build demonstrations from: give --demos-from SPEC (e.g. "
                     "ircot-demos:/path/hotpotqa.txt or musique:train@/path/train.jsonl), or --demos-from none to "
                     "run zero-shot on purpose")


def _loaded(source: str) -> tuple[Dataset, str]:
    """The source's dataset, and the source as named, with where its rows were read when a stored copy stood in
    for the hub."""
    from hopkit.data.registry import load_dataset_spec

    train = load_dataset_spec(source)
    return train, f"{source} (stored copy {train.stored_copy})" if train.stored_copy else source
