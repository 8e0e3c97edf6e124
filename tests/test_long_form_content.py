"""The long-form content count: an answer names the maker and birthplace of its reference, or opens in its shape."""

from __future__ import annotations

from pathlib import Path
from script_loader import load_script

REFERENCE = ("The Golden Tide is a history book written by Rouk Grirnhoar in 1857. Rouk Grirnhoar was a historian "
             "born in New Montreil in 1819. It was published by Greikthand College.")


def _row(answer: str) -> dict:
    return {"qid": "q", "answers": [REFERENCE], "prediction": {"answer": answer}}


def test_content_and_shape_are_counted_apart() -> None:
    counts = load_script("long_form_content").counts([
        _row("The Golden Tide is a history book written by Rouk Grirnhoar in 1857."),  # shape and maker only
        _row("Rouk Grirnhoar, who came from New Montreil, wrote it."),  # maker and birthplace, not the shape
        _row("It was published by Greikthand College."),  # neither
        {"qid": "e", "answers": [REFERENCE], "prediction": None},  # a failed row counts as naming nothing
    ])
    assert counts == {"n": 4, "maker": 2, "birthplace": 1, "reference_shape": 1}


def test_a_resumed_logs_answer_supersedes_its_failed_row(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text('{"qid": "a", "answers": ["x"], "error": "timeout", "prediction": null, "metrics": {}}\n'
                   '{"qid": "a", "answers": ["x"], "error": null, "prediction": {"answer": "new"}, "metrics": {}}\n',
                   encoding="utf-8")
    rows = load_script("long_form_content").read_rows(log)
    assert list(rows) == ["a"] and rows["a"]["prediction"]["answer"] == "new"
