"""Local LM calls on one machine take turns on its cores.

llama.cpp runs each call on all the cores with threads that wait for each other at every step, so two processes
side by side (two evals, or an eval beside a long queue) each wait on threads the other has taken, and together
they finish far fewer calls than one process alone (docs/lm.md has the figures). Each call therefore holds a file
lock shared by every hopkit process of this user on this machine, and the processes alternate call by call.
``HOPKIT_CPU_TURNS=0`` turns it off, for processes that each have cores of their own (``HOPKIT_LM_THREADS``).
``hopkit bench-turns`` measures it (hopkit/lm/turns_bench.py).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # no flock (Windows): calls run side by side as before
    fcntl = None  # type: ignore[assignment]


def turns_wanted() -> bool:
    return os.environ.get("HOPKIT_CPU_TURNS", "1") != "0"


def default_turn_file() -> Path:
    """One lock file for the machine's cores, per user (another user's file would not be ours to open);
    ``HOPKIT_CPU_TURNS_FILE`` names another, e.g. one that containers sharing the cores all mount."""
    named = os.environ.get("HOPKIT_CPU_TURNS_FILE")
    if named:
        return Path(named)
    return Path(tempfile.gettempdir()) / f"hopkit-cpu-turns-{os.getuid() if hasattr(os, 'getuid') else 0}.lock"


class CpuTurns:
    """The turn one LM call holds; ``waited`` sums the seconds calls spent waiting for another process's."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_turn_file()
        self.waited = 0.0
        self.noted = False  # the first wait says why, once a process

    @contextmanager
    def turn(self) -> Iterator[None]:
        if fcntl is None:
            yield
            return
        handle = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            start = time.perf_counter()
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not self.noted:
                    self.noted = True
                    print("note: another hopkit process is calling the local LM; the two take turns on the cores "
                          "(HOPKIT_CPU_TURNS=0 turns this off; docs/lm.md)", file=sys.stderr)
                fcntl.flock(handle, fcntl.LOCK_EX)
            self.waited += time.perf_counter() - start
            yield
        finally:
            os.close(handle)  # closing the file releases its lock
