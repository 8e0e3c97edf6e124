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


def _searchain_row(read_by_nodes: list[str | None], retrieved: list[str]) -> dict:
    nodes = [{"id": f"r1.{i}", "action": "pass", "lm_answer": "Paris", "reader_answer": "Paris", "pid": pid}
             for i, pid in enumerate(read_by_nodes, start=1)]
    return {"qid": "q", "answers": ["Lyon"], "gold_pids": ["g1", "g2"], "metrics": {"em": 0.0, "cover_em": 0.0},
            "prediction": {"answer": "Paris", "retrieved": retrieved},
            "trace": {"tree": {"nodes": nodes, "branches": [{"final_answer": "Paris"}]}}}


def test_searchain_losses_are_the_readers_only_when_every_gold_paragraph_was_read():
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    from searchain_failures import diagnose

    assert diagnose(_searchain_row(["g1", "g2"], ["g1", "g2"])) == "reader"
    assert diagnose(_searchain_row(["g1", "x"], ["g1", "x", "g2"])) == "reader"  # k > 1: the node read g2 too
    assert diagnose(_searchain_row(["g1", "x"], ["g1", "x"])) == "planner, later hop"
    assert diagnose(_searchain_row(["x", None], ["x"])) == "planner"


def test_the_query_context_counterfactual_appends_only_answers_found_earlier_in_the_chain():
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    from searchain_query_context import chain_queries

    nodes = [{"id": "r1.1", "action": "completed", "query": "Who directed X?", "lm_answer": "", "reader_answer": "Ann Lee",
              "pid": "p1"},
             {"id": "r1.2", "action": "pass", "query": "Where was the director of X born?", "lm_answer": "Oslo",
              "reader_answer": "Oslo", "pid": "p2"},
             {"id": "r1.3", "action": "not-reached", "query": "Is Ann Lee Norwegian?", "lm_answer": "yes",
              "reader_answer": None, "pid": None}]
    trace = {"tree": {"nodes": nodes, "branches": [{"node_ids": ["r1.1", "r1.2", "r1.3"]}]}}
    assert chain_queries(trace) == [("Who directed X?", "Who directed X?"),
                                    ("Where was the director of X born?", "Where was the director of X born? Ann Lee")]
