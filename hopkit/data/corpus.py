"""Reading and validating a passage collection from JSONL or TSV."""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from hopkit.data.passage import Passage
from hopkit.errors import CorpusError, InputError, MissingArtifactError


class Corpus:
    """An ordered, validated collection of passages addressable by pid."""

    def __init__(self, passages: Iterable[Passage]) -> None:
        self._passages: list[Passage] = []
        self._by_pid: dict[str, int] = {}
        self._fingerprint: str | None = None  # a corpus does not change once built, so it is hashed once
        for line_no, passage in enumerate(passages, start=1):
            _validate(passage, line_no)
            if passage.pid in self._by_pid:
                raise CorpusError(
                    f"duplicate pid {passage.pid!r} (entries {self._by_pid[passage.pid] + 1} and {line_no}); "
                    "every passage needs a unique pid"
                )
            self._by_pid[passage.pid] = len(self._passages)
            self._passages.append(passage)
        if not self._passages:
            raise CorpusError("the corpus is empty; give a JSONL or TSV file with at least one passage")

    def __len__(self) -> int:
        return len(self._passages)

    def __iter__(self) -> Iterator[Passage]:
        return iter(self._passages)

    def __contains__(self, pid: str) -> bool:
        return pid in self._by_pid

    def __getitem__(self, pid: str) -> Passage:
        try:
            return self._passages[self._by_pid[pid]]
        except KeyError:
            raise KeyError(f"pid {pid!r} is not in the corpus") from None

    def at(self, position: int) -> Passage:
        return self._passages[position]

    def fingerprint(self) -> str:
        """sha256 over pids, titles and texts: says whether an index matches this corpus."""
        if self._fingerprint is None:
            digest = hashlib.sha256()
            for p in self._passages:
                digest.update(f"{p.pid}\t{p.title}\t{p.text}\n".encode())
            self._fingerprint = digest.hexdigest()
        return self._fingerprint

    def write_jsonl(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        with tmp.open("w", encoding="utf-8") as out:
            for p in self._passages:
                out.write(json.dumps({"pid": p.pid, "title": p.title, "text": p.text}, ensure_ascii=False) + "\n")
        tmp.replace(path)

    @classmethod
    def from_file(cls, path: str | Path) -> Corpus:
        """Read ``.jsonl`` (objects with pid, title, text, or FlashRAG's id and contents) or ``.tsv`` (pid, text,
        title columns)."""
        path = Path(path)
        if not path.is_file():
            raise MissingArtifactError(f"corpus file {path} does not exist; build one with `hopkit data build`")
        if path.suffix == ".jsonl":
            return cls(read_jsonl_passages(path))
        if path.suffix == ".tsv":
            return cls(_read_tsv(path))
        raise CorpusError(f"corpus {path}: unsupported extension {path.suffix!r}; use .jsonl or .tsv")


def _validate(passage: Passage, line_no: int) -> None:
    if not passage.pid:
        raise CorpusError(f"entry {line_no}: empty pid")
    if not passage.text or not passage.text.strip():
        raise CorpusError(f"entry {line_no} (pid {passage.pid!r}): empty text; remove it or fill it in")


def json_objects(path: Path, error: type[InputError] = InputError) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-empty line of a JSON-lines file; a line that is no JSON object is a
    one-line ``error`` naming the file and line."""
    with path.open(encoding="utf-8") as lines:
        for line_no, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as problem:
                raise error(f"{path}:{line_no}: not a JSON object ({problem.msg})") from None
            if not isinstance(row, dict):
                raise error(f"{path}:{line_no}: not a JSON object")
            yield line_no, row


def context_pid(title: str, text: str) -> str:
    """Stable pid of a context paragraph: the same title and text always get the same pid."""
    return "ctx-" + hashlib.sha1(f"{title}\n{text}".encode()).hexdigest()[:12]


def passage_of(row: dict) -> Passage | None:
    """A corpus line as a passage, or None where it has no text. hopkit's lines are ``pid``, ``title``, ``text``;
    FlashRAG's are ``id`` and ``contents`` (the title, quoted, on its first line); a line with no pid gets one
    derived from its title and text."""
    text, title = row.get("text"), row.get("title")
    if text is None and isinstance(row.get("contents"), str):
        first, newline, rest = row["contents"].partition("\n")
        title, text = (first.strip().strip('"'), rest) if newline and title is None else (title, row["contents"])
    if not isinstance(text, str) or not text.strip():
        return None
    title = str(title or "")
    pid = row.get("pid", row.get("id"))
    return Passage(pid=str(pid) if pid not in (None, "") else context_pid(title, text), title=title, text=text)


def read_jsonl_passages(path: Path, error: type[InputError] = CorpusError) -> Iterator[Passage]:
    """Every passage of a JSON-lines corpus (hopkit's or FlashRAG's lines); a line repeating an earlier one's title
    and text with no pid of its own is the same paragraph, kept once."""
    derived: set[str] = set()
    for line_no, row in json_objects(path, error):
        passage = passage_of(row)
        if passage is None:
            raise error(f"{path}:{line_no}: a corpus line needs 'text' and 'title' (and a 'pid'), or FlashRAG's "
                        "'id' and 'contents'")
        if row.get("pid", row.get("id")) in (None, ""):
            if passage.pid in derived:
                continue
            derived.add(passage.pid)
        yield passage


def _read_tsv(path: Path) -> Iterator[Passage]:
    """ColBERT's collection.tsv layout: pid, text, and optionally title."""
    with path.open(encoding="utf-8", newline="") as handle:
        for line_no, row in enumerate(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE), start=1):
            if line_no == 1 and row and row[0].lower() in {"id", "pid"}:
                continue
            if len(row) < 2:
                raise CorpusError(f"{path}:{line_no}: expected 'pid<TAB>text[<TAB>title]', got {len(row)} column(s)")
            yield Passage(pid=row[0], text=row[1], title=row[2] if len(row) > 2 else "")
