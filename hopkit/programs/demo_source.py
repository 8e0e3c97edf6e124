"""Where a program's in-context demonstrations come from, when the user does not say.

``--demos-from auto`` (the default) takes demonstrations from the evaluated data's own world:
bundled:train for the bundled benchmark (for a bundled task split, its own task's train split first, then
bundled:train for the shapes that split lacks: the task's answers and chains reach the prompts, and a
program that needs a comparison or a three-hop example still finds one; IRCoT's balanced pick fills its
budget from the task's examples first), and none (zero-shot) for any
other dataset, so that no fictional-world names reach the prompts of real questions. In-domain
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


def resolve_demos_from(spec: str | None, dataset_name: str | None) -> str | None:
    """The dataset spec to build demonstrations from, or None for zero-shot."""
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
    return None


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
