"""A benchmark's modes, each measured in a child process of its own: a fresh model and fresh engine counters, so one
mode's warm caches never flatter the next. Finished modes are kept in the ``--out`` JSON and not run again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from hopkit.paths import existing_figures


def measure_in_processes(module: str, request: Mapping, modes: Iterable[str], out: Path | None,
                         describe: Callable[[str], str], say: Callable[[str], None] = print,
                         env: Callable[[str], Mapping[str, str]] = lambda mode: {}) -> dict[str, dict]:
    """Run ``python -m module REQUEST MODE`` for each mode not in ``out`` yet; the child prints its figures as JSON
    on its last line, and each mode's figures are written to ``out`` as soon as it finishes."""
    done: dict[str, dict] = existing_figures(out, dict) or {}
    for mode in modes:
        if mode in done:
            say(f"{mode}: measured already ({out})")
            continue
        say(f"{mode}: {describe(mode)} in a fresh process ...")
        child = [sys.executable, "-m", module, json.dumps(dict(request)), mode]
        proc = subprocess.run(child, env={**os.environ, **env(mode)}, capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError(f"mode {mode} failed: {proc.stderr.strip()[-1500:]}")
        done[mode] = json.loads(proc.stdout.strip().splitlines()[-1])
        if out:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(done, indent=1))
    return done
