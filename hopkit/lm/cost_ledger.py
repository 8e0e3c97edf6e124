"""What each LM call cost when it was computed, kept beside DSPy's cache, so that a replayed call (a cache hit,
which DSPy returns with no usage) still reports the tokens and seconds of computing it.

The key is the request itself (model, prompt or messages, and every request setting), so the same request that
DSPy answers from its cache finds its entry here. The first computation of a request is the one kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

FILE = "hopkit-costs.sqlite"


def request_key(model: str, prompt: Any, messages: Any, settings: dict[str, Any]) -> str:
    body = json.dumps({"model": model, "prompt": prompt, "messages": messages, "settings": settings},
                      sort_keys=True, default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


class CostLedger:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30)
        with self._lock, self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS costs (key TEXT PRIMARY KEY, prompt_tokens INTEGER, "
                             "completion_tokens INTEGER, seconds REAL)")

    def record(self, key: str, prompt_tokens: int, completion_tokens: int, seconds: float) -> None:
        with self._lock, self._db:
            self._db.execute("INSERT OR IGNORE INTO costs VALUES (?, ?, ?, ?)",
                             (key, prompt_tokens, completion_tokens, seconds))

    def lookup(self, key: str) -> tuple[int, int, float] | None:
        with self._lock:
            row = self._db.execute("SELECT prompt_tokens, completion_tokens, seconds FROM costs WHERE key = ?",
                                   (key,)).fetchone()
        return (int(row[0]), int(row[1]), float(row[2])) if row else None


def default_ledger() -> CostLedger | None:
    """The ledger beside DSPy's disk cache (``DSPY_CACHEDIR``, as hopkit sets it), or None where it cannot open."""
    folder = os.environ.get("DSPY_CACHEDIR") or str(Path.home() / ".dspy_cache")
    return _open(str(Path(folder) / FILE))


@lru_cache(maxsize=8)
def _open(path: str) -> CostLedger | None:
    try:
        return CostLedger(Path(path))
    except (OSError, sqlite3.Error):
        return None
