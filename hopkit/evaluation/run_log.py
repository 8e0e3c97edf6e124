"""The JSONL log of an evaluation: one row per finished question, appended as it finishes.

A killed run resumes from it: finished qids are skipped, a torn last line is dropped.
A sidecar ``.meta.json`` records the run's configuration so a resume cannot mix two runs.
One process writes a log at a time (``RunLog.writing``): a second ``hopkit eval`` on the same ``--out`` is
refused with the first one's pid, instead of answering every question again; optimizer workers that meet on one
setting wait for each other and read what the other answered. The writer's lock is an OS file lock, so it goes
when its process exits, however it exits. Each row is also appended under a short exclusive lock, and a question
answered twice counts once (the first row).
"""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from hopkit.errors import InputError

# Keys that only label a run (an ablation variant's name and table group, where the dataset was read from, what
# ``--retriever auto`` measured: the backend it chose is a setting of its own): a resume ignores them
LABELS = frozenset({"name", "table", "dataset_spec", "retriever_choice"})


class RunLog:
    """``mechanics``: fields of the metadata's ``spec`` that do not change an answer (how many questions, threads,
    the LM's timeout, the cache): a resume may change them, and the metadata then records the new values."""

    def __init__(self, path: Path, meta: dict, mechanics: frozenset[str] = frozenset()) -> None:
        # a link is followed, so the rows and their .meta.json sit side by side at the target
        self.path = Path(path).resolve() if Path(path).is_symlink() else Path(path)
        self.meta_path = self.path.with_suffix(".meta.json")
        self.mechanics = mechanics
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        refuse_other_file(self.path)
        self._check_meta(meta)
        self.rows = self._read_rows()

    def _settings(self, meta: dict) -> dict:
        """The metadata a resume must match: labels and the spec's mechanics left out."""
        kept = {k: v for k, v in meta.items() if k not in LABELS}
        if isinstance(kept.get("spec"), dict):
            kept["spec"] = {k: v for k, v in kept["spec"].items() if k not in self.mechanics}
        return kept

    def _check_meta(self, meta: dict) -> None:
        if self.meta_path.exists() and self.path.exists():
            previous = json.loads(self.meta_path.read_text())
            if "profile" in meta and "profile" not in previous:
                previous["profile"] = "hopkit"  # a log from before profiles ran hopkit's defaults
            changed = changed_settings(self._settings(previous), self._settings(meta))
            if changed:
                raise InputError(
                    f"{self.path} holds a run with other settings ({', '.join(changed)}); "
                    "pass another --out, or delete the file to start over"
                )
        self.meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True))

    def _read_rows(self) -> list[dict]:
        if not self.path.exists():
            return []
        with locked(self.path):
            text = self.path.read_text(encoding="utf-8")
            parsed, torn = parse_lines(text.splitlines())
            # a write cut by a kill: drop it (the question is redone), keep every whole row; a last row without its
            # newline gets one, so the next row is not glued to it
            if torn or (text and not text.endswith("\n")):
                self._rewrite(parsed)
        return final_rows(parsed)

    def _rewrite(self, rows: list[dict]) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        tmp.replace(self.path)

    @contextmanager
    def writing(self, wait: bool = False) -> Iterator[RunLog]:
        """Hold the log's writer lock while answering into it. Another live process holding it: with ``wait``,
        block until it lets go and then read the rows it added; else a one-line error that names it. Taken again
        by the thread that holds it, it is a no-op."""
        holder = _held.get(self.path.resolve())
        if holder is not None:
            yield self
            return
        handle = _acquire(self.path, wait)
        _held[self.path.resolve()] = handle
        try:
            self.rows = self._read_rows()  # what an earlier writer added while this one waited
            yield self
        finally:
            del _held[self.path.resolve()]
            handle.close()  # closing the file releases its lock

    def done_qids(self) -> set[str]:
        """Questions answered without an error; a question whose row recorded an error runs again."""
        return {row["qid"] for row in self.rows if not row.get("error")}

    def append(self, row: dict) -> None:
        line = json.dumps(row, ensure_ascii=False, default=str) + "\n"
        with self._lock, locked(self.path):
            with self.path.open("a", encoding="utf-8") as out:
                out.write(line)
                out.flush()
            self.rows = final_rows([*self.rows, row])


def refuse_other_file(path: Path) -> None:
    """An existing file that is not a run log (a CSV, a dataset) is never written into: one line instead."""
    if not path.is_file() or path.stat().st_size == 0 or path.with_suffix(".meta.json").is_file():
        return  # nothing to lose, or a run log's own metadata beside it
    with path.open(encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    number = foreign_line(lines, lambda row: "qid" in row and ("metrics" in row or "error" in row), '{"qid"')
    if number is not None:
        raise InputError(f"{path} exists and is not a run log (line {number} is not a question's row); "
                         "pass another --out")


def foreign_line(lines: list[str], is_row: Callable[[dict], bool], torn_start: str) -> int | None:
    """The number (from 1) of the first line that is not one of a log's rows, None where every line is; a last line
    cut by a kill (it starts as a row does, ``torn_start``) is the log's own, which resuming drops."""
    last = len(lines) - 1
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if number == last and line.lstrip().startswith(torn_start):
                continue
            row = None
        if not (isinstance(row, dict) and is_row(row)):
            return number + 1
    return None


def changed_settings(previous: dict, current: dict) -> list[str]:
    """The settings two logs' metadata disagree on, by name; where only the run spec differs, its own fields."""
    changed = sorted(k for k in set(previous) | set(current) if previous.get(k) != current.get(k))
    if changed == ["spec"] and isinstance(previous["spec"], dict) and isinstance(current["spec"], dict):
        changed = sorted(k for k in set(previous["spec"]) | set(current["spec"])
                         if previous["spec"].get(k) != current["spec"].get(k))
    return changed


def parse_lines(lines: list[str]) -> tuple[list[dict], bool]:
    """Every whole JSON row, and whether a line was torn (a write cut by a kill)."""
    rows, torn = [], False
    for line in lines:
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            torn = True
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows, torn


def row_seconds(row: dict) -> float:
    """A row's wall seconds as the harness recorded them (0 for a row without a cost)."""
    return float((row.get("cost") or {}).get("seconds", 0.0))


def final_rows(rows: list[dict]) -> list[dict]:
    """One row per question, in first-seen order: its first answered row, else its last error row.

    The log is append-only: a rerun retries the questions that failed and appends their new rows, so a
    question can hold an error row and, later, its answer; the answer counts."""
    chosen: dict[str, dict] = {}
    for row in rows:
        qid = str(row.get("qid"))
        if qid not in chosen or (chosen[qid].get("error") and not row.get("error")) or (
                chosen[qid].get("error") and row.get("error")):
            chosen[qid] = row
    return list(chosen.values())


_held: dict[Path, object] = {}  # the writer locks this process holds, by log


def _writer_lock(path: Path) -> Path:
    return path.parent / f".{path.name}.writer"


def _acquire(path: Path, wait: bool):
    """The open, locked writer-lock file of ``path``, with this process's pid written in it."""
    try:
        import fcntl
    except ImportError:  # Windows: no cross-process check
        return open(os.devnull, "a")
    lock = _writer_lock(path)
    handle = open(lock, "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        handle.seek(0)
        other = handle.read().strip() or "another process"
        handle.close()
        raise InputError(f"{path} is being written by {other}; wait for it to finish, or pass another --out") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"process {os.getpid()} on {socket.gethostname()}")
    handle.flush()
    return handle


@contextmanager
def locked(path: Path):
    """An exclusive lock shared by every process that writes ``path`` (a hidden sidecar ``.NAME.lock``);
    a no-op where the platform has no ``fcntl``."""
    try:
        import fcntl
    except ImportError:  # Windows: one writer per log
        yield
        return
    with open(path.parent / f".{path.name}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
