"""The failure scripts (where IRCoT and SearChain lose answers) read run logs as the harness does: a wrong path or
a file that is no run log is a one-line error with rc 2, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.mark.parametrize("script", ["ircot_failures.py", "searchain_failures.py"])
def test_a_file_that_is_no_run_log_is_a_one_line_error(script, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a log\n")
    for path, expected in ((notes, "is not a run log"), (tmp_path / "missing.jsonl", "no run log at")):
        done = subprocess.run([sys.executable, str(SCRIPTS / script), str(path)], capture_output=True, text=True)
        assert done.returncode == 2
        assert expected in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
