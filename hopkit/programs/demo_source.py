"""Where a program's in-context demonstrations come from, when the user does not say.

``--demos-from auto`` (the default) takes demonstrations from the evaluated data's own world:
bundled:train for the bundled benchmark (for a bundled task split, its own task's train split first, then
bundled:train for the shapes that split lacks: the task's answers and chains reach the prompts, and a
program that needs a comparison or a three-hop example still finds one; IRCoT's balanced pick fills its
budget from the task's examples first), and none (zero-shot) for any
other dataset, so that no fictional-world names reach the prompts of real questions. In-domain
demonstrations for real data come from a file the user owns, e.g. ``--demos-from
ircot-demos:/path/hotpotqa.txt`` (IRCoT's authors' files); a question is never shown its own example (hopkit/programs/own_example.py).
The comparison behind this default (zero-shot, bundled, in-domain on real HotpotQA) is in
docs/results.md.
"""

from __future__ import annotations

AUTO = "auto"
ZERO_SHOT = "none"
BUNDLED_TRAIN = "bundled:train"


def resolve_demos_from(spec: str | None, dataset_name: str | None) -> str | None:
    """The dataset spec to build demonstrations from, or None for zero-shot."""
    spec = (spec or AUTO).strip()
    if spec == ZERO_SHOT:
        return None
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
