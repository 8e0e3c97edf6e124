"""The log of ``hopkit calibrate-reader``: one reading of a (query, passage) pair a line, keyed by the pair.

As a run log does (hopkit/evaluation/run_log.py), it resumes where a killed run stopped, keeps a ``.meta.json`` of
the settings its readings were made under so that a resume cannot mix two readers' confidences in one table, and
never writes into a file that is not such a log.
"""

from __future__ import annotations

import json
from pathlib import Path

from hopkit.errors import InputError
from hopkit.evaluation.run_log import LABELS, changed_settings, foreign_line, locked, parse_lines

FIELDS = ("key", "confidence")  # what every reading has


class PairLog:
    def __init__(self, path: Path, settings: dict) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lines = self.path.read_text(encoding="utf-8").splitlines() if self.path.is_file() else []
        records, torn = parse_lines(lines)
        meta_path = self.path.with_suffix(".meta.json")
        if lines and not meta_path.is_file():  # a log from before the metadata, or another kind of file
            _refuse_other_file(self.path, lines)
        if records and meta_path.is_file():
            changed = changed_settings(_compared(json.loads(meta_path.read_text())), _compared(settings))
            if changed:
                raise InputError(f"{self.path} holds readings made with other settings ({', '.join(changed)}); "
                                 "pass another --out, or delete the file to start over")
        meta_path.write_text(json.dumps(settings, indent=2, sort_keys=True))
        if torn or (lines and not self.path.read_text(encoding="utf-8").endswith("\n")):
            self._rewrite(records)  # a line cut by a kill is read again; the next reading starts on a line of its own
        self.records: dict[str, dict] = {}
        for record in records:
            self.records.setdefault(record["key"], record)

    def append(self, record: dict) -> None:
        with locked(self.path), self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.records.setdefault(record["key"], record)

    def _rewrite(self, records: list[dict]) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        tmp.replace(self.path)


def _compared(settings: dict) -> dict:
    """The settings a resume must match: labels (where the dataset was read from) left out, as a run log does."""
    return {name: value for name, value in settings.items() if name not in LABELS}


def _refuse_other_file(path: Path, lines: list[str]) -> None:
    """A file whose every whole line is not a reading (a run log, a dataset, a CSV) is never written into."""
    number = foreign_line(lines, lambda record: all(field in record for field in FIELDS), '{"key"')
    if number is not None:
        raise InputError(f"{path} exists and is not a calibrate-reader log (line {number} is not a pair's "
                         "reading); pass another --out")
