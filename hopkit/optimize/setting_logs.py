"""A study's per-setting dev logs: ``settings/setting-<key>.jsonl``, each beside the ``.meta.json`` that names its
knobs and metric (written by ``Objective.log_for``). Every reader of a study's settings finds them here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def setting_logs(settings_dir: Path) -> list[tuple[dict[str, Any], Path]]:
    """(meta, dev log) of each setting, in file order; the log may be missing or empty for a setting just begun."""
    return [(json.loads(meta.read_text(encoding="utf-8")), meta.with_name(meta.name[:-len(".meta.json")] + ".jsonl"))
            for meta in sorted(Path(settings_dir).glob("setting-*.meta.json"))]
