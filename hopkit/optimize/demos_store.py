"""A demos study's compiled demonstrations, kept in its folder: a resumed or parallel run reuses them.

Compiling (BootstrapFewShot, MIPROv2) costs LM calls and need not give the same demos twice (a
cleared LM cache, another machine's LM). Every trial of a study must run with the same demos, so
the first run writes them to ``demos-state.json`` beside the study, with what they were compiled
from, and later runs load them instead of compiling again. A file compiled from other inputs
(teleprompter, training split, seed, method) is an error, not silently replaced.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hopkit.errors import InputError

STATE_FILE = "demos-state.json"


def state_fingerprint(state: dict[str, Any]) -> str:
    """A short hash of the demonstrations' state; trial logs are keyed by it so demos never mix."""
    return hashlib.sha1(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()[:12]


def load_or_compile(folder: Path, provenance: dict[str, Any], compile_state: Callable[[], dict[str, Any]],
                    say: Callable[[str], None] = print) -> dict[str, Any]:
    path = Path(folder) / STATE_FILE
    if path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("provenance") != provenance:
            raise InputError(f"{path} holds demonstrations compiled from {saved.get('provenance')}, not "
                             f"{provenance}; use another study folder or delete that file to compile again")
        say(f"reusing the demonstrations in {path}")
        return saved["state"]
    state = compile_state()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    partial.write_text(json.dumps({"provenance": provenance, "state": state}, default=str), encoding="utf-8")
    os.replace(partial, path)  # two workers compiling at once: the last complete file wins, none is torn
    return json.loads(path.read_text(encoding="utf-8"))["state"]
