"""Where a program's in-context demonstrations come from, when the user does not say.

``--demos-from auto`` (the default) takes demonstrations from the evaluated data's own world:
bundled:train for the bundled benchmark (for a bundled task split, its own task's train split first, then
bundled:train for the shapes that split lacks: the task's answers and chains reach the prompts, and a
program that needs a comparison or a three-hop example still finds one; IRCoT's balanced pick fills its
budget from the task's examples first). For a real dataset it is what issue 39 measured for that method on that
dataset (``MEASURED_DEFAULTS``): the dataset's own train split where it scored the higher F1, zero-shot elsewhere,
so that no fictional-world names reach the prompts of real questions. When a chosen source cannot be loaded (a train split offline, with no local copy), the
command line says so and takes the next, then zero-shot (hopkit/cli/demos.py). In-domain
demonstrations for real data come from a file the user owns, e.g. ``--demos-from
ircot-demos:/path/hotpotqa.txt`` (IRCoT's authors' files) or ``--demos-from in-domain`` (the dataset's own hub
train split: MuSiQue's decompositions, 2Wiki's evidences, HotpotQA's supporting sentences become chains); a
question is never shown its own example (hopkit/programs/own_example.py).
The comparison behind this default (zero-shot, bundled, in-domain on real HotpotQA) is in
docs/results.md.
"""

from __future__ import annotations

AUTO = "auto"
ZERO_SHOT = "none"
IN_DOMAIN = "in-domain"
BUNDLED_TRAIN = "bundled:train"
# the hub train split whose chains (MuSiQue's decompositions, 2Wiki's evidences, HotpotQA's supporting sentences)
# give a real dataset's in-domain demonstrations (hopkit/data/hub_formats.py)
TRAIN_SPLITS = {"musique": "musique:train", "2wikimultihopqa": "2wikimultihopqa:train",
                "hotpotqa-distractor": "hotpotqa-distractor:train", "hotpotqa-fullwiki": "hotpotqa-distractor:train"}
# (method, dataset family) -> the demonstrations that scored a higher F1 than zero-shot for that method there
# (paired, first 20 dev questions, hopkit's current answer steps; docs/results.md, "The demonstrations each method
# gets by default"), and held that lead on the questions the choice never read where stage 2 grew both logs
# (scripts/demos_choice.py), best first: ``auto`` takes the first that loads. IRCoT on MuSiQue: MuSiQue's train
# decompositions, +5.0 (hopkit's own ten tied zero-shot there, so they are no fallback). Zero-shot elsewhere, as
# measured: SearChain -22.0, -10.8 and -3.3 on HotpotQA, 2Wiki and MuSiQue with the in-domain sources; IRCoT on
# HotpotQA and 2Wiki, where hopkit's own ten led on the first 20 (+12.7 and +18.3) and lost on the questions after
# them (-6.9 [-17.0, +2.5] on HotpotQA's 21-60, -4.6 [-16.7, +7.2] on 2Wiki's 21-82), so the cheaper prompt stands
# (the IRCoT authors' files: --demos-from ircot-demos:FILE); ToR on MuSiQue, where the train decompositions led the
# first 20 (+11.7) and not questions 21-60 (-0.8 [-9.4, +6.8]), at 11.2 LM calls a question against 7.0.
MEASURED_DEFAULTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("ircot", "musique"): ("musique:train",),
}


def default_sources(dataset_name: str | None, method: str | None) -> tuple[str, ...]:
    """What ``auto`` tries for a method on a real dataset, in order; empty: zero-shot."""
    from hopkit.knobs.measured import dataset_family

    return MEASURED_DEFAULTS.get((method or "", dataset_family(dataset_name)), ())


def resolve_demos_from(spec: str | None, dataset_name: str | None, method: str | None = None) -> str | None:
    """The dataset spec to build demonstrations from, or None for zero-shot. ``auto`` on a real dataset depends on
    the method (``MEASURED_DEFAULTS``: the first source; hopkit/cli/demos.py falls back along them); without a
    method it is zero-shot."""
    spec = (spec or AUTO).strip()
    if spec == ZERO_SHOT:
        return None
    if spec == IN_DOMAIN:
        return in_domain_source(dataset_name)
    if spec != AUTO:
        return spec
    if dataset_name and dataset_name.startswith("bundled:"):
        task = _bundled_task(dataset_name)
        return f"bundled:{task}:train+{BUNDLED_TRAIN}" if task else BUNDLED_TRAIN
    sources = default_sources(dataset_name, method)
    return sources[0] if sources else None


def is_measured_default(spec: str | None, dataset_name: str | None, method: str | None) -> bool:
    """Whether ``auto`` chose demonstrations for this method (a default the user did not ask for)."""
    return (spec or AUTO).strip() == AUTO and bool(default_sources(dataset_name, method))


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
