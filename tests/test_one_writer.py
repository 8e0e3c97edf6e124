"""One writer per run log: a second process that opens a log another is writing is refused with a one-line error
naming it; the first writer's rows are intact after the refusal and after a kill -9 of the first, whose lock goes
with it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import dspy
import pytest

from hopkit.errors import InputError
from hopkit.evaluation.harness import evaluate
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.run_log import RunLog

WRITER = """
import sys, time
from pathlib import Path
from hopkit.evaluation.run_log import RunLog
log = RunLog(Path(sys.argv[1]), {"run": "first"})
with log.writing():
    for i in range(2):
        log.append({"qid": f"q{i}", "metrics": {"em": 1.0}, "cost": {"lm_calls": 1}, "error": None})
    print("writing", flush=True)
    time.sleep(60)
"""


def _examples(n):
    return [dspy.Example(qid=f"q{i}", question=f"Q{i}?", answers=["A"], gold_pids=[]).with_inputs("question")
            for i in range(n)]


def _answer(question):
    return dspy.Prediction(answer="A", citations=[], retrieved=[], trace={})


@pytest.fixture()
def first_writer(tmp_path):
    path = tmp_path / "run.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "writing"
    yield path, proc
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def test_a_second_writer_is_refused_naming_the_first_and_its_rows_stay(first_writer):
    path, proc = first_writer
    log = RunLog(path, {"run": "first"})
    with pytest.raises(InputError, match=rf"is being written by process {proc.pid} on .*pass another --out"):
        evaluate(_answer, _examples(4), [get_metric("em")], log, progress=False)
    assert [json.loads(line)["qid"] for line in path.read_text().splitlines()] == ["q0", "q1"]
    # a log with nothing left to answer is read, not written: no lock is needed to report it
    assert evaluate(_answer, _examples(2), [get_metric("em")], log, progress=False).n == 2


def test_a_killed_writer_lets_go_and_the_next_resumes_from_its_rows(first_writer):
    path, proc = first_writer
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    log = RunLog(path, {"run": "first"})
    report = evaluate(_answer, _examples(4), [get_metric("em")], log, progress=False)
    assert report.n == 4
    assert [json.loads(line)["qid"] for line in path.read_text().splitlines()] == ["q0", "q1", "q2", "q3"]


def test_a_waiting_writer_reads_what_the_first_answered(first_writer):
    path, proc = first_writer
    log = RunLog(path, {"run": "first"})
    asked = []

    def answer(question):
        asked.append(question)
        return _answer(question)

    start = time.monotonic()
    import threading

    threading.Timer(1.0, proc.kill).start()
    evaluate(answer, _examples(3), [get_metric("em")], log, progress=False, wait_for_writer=True)
    assert time.monotonic() - start >= 0.9 and asked == ["Q2?"]  # q0 and q1 came from the first writer
