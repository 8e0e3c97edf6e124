"""Faults on the LM path: an LM server behind a fault-injecting proxy (errors, stalls past the timeout, cut
responses, garbage) at 10% and 30% of calls, a server killed mid-run, a killed eval, a dead retrieval server.
Every run ends within its time bound, every question ends answered or with its error recorded, and a rerun
completes only what failed."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from lm_servers import fault_proxy, scripted_lm_server

from hopkit.cli.main import main
from hopkit.evaluation.run_log import final_rows, parse_lines

N = 30


@pytest.fixture(scope="module")
def bundled_index(hopkit_home):
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0


def _eval(port, out, n=N, timeout=2.0):
    # The either-or check is off: these tests count one LM call per question, and the scripted answer
    # ("Morn") names neither option of an either-or question, which would add a check call.
    return main(["eval", "--method", "oner", "--dataset", "bundled:dev", "--n", str(n), "--lm", "openai/scripted",
                 "--set", "option_check=false",
                 "--api-base", f"http://127.0.0.1:{port}/v1", "--lm-timeout", str(timeout), "--no-cache",
                 "--quiet", "--out", str(out)])


def _rows(out):
    parsed, _ = parse_lines(Path(out).read_text().splitlines())
    return final_rows(parsed)


@pytest.mark.parametrize("rate", [0.1, 0.3])
def test_an_eval_through_injected_faults_finishes_and_a_rerun_completes_the_failed(bundled_index, tmp_path, rate):
    server = scripted_lm_server()
    proxy = fault_proxy(server.server_address[1], rate, stall_seconds=4.0)
    out = tmp_path / "run.jsonl"
    start = time.monotonic()
    status = _eval(proxy.server_address[1], out)
    elapsed = time.monotonic() - start
    rows = _rows(out)
    errors = [r for r in rows if r.get("error")]
    assert status == (1 if errors else 0)  # failed questions: not finished
    assert len(rows) == N and all(r.get("error") or r["prediction"]["answer"] == "Morn" for r in rows)
    assert sum(proxy.injected.values()) >= round(rate * N) - 2 and elapsed < 150, (proxy.injected, elapsed)
    print(f"rate {rate}: injected {proxy.injected}, recorded errors {len(errors)}, {elapsed:.1f} s")
    proxy.fault_for = lambda index: None  # the faults stop; the same endpoint, so the run log resumes
    before = server.calls
    assert _eval(proxy.server_address[1], out) == 0
    rows = _rows(out)
    assert len(rows) == N and not any(r.get("error") for r in rows)
    assert server.calls - before == len(errors) + 1  # the failed questions and the reachability check, nothing else
    for s in (server, proxy):
        s.shutdown()


def test_an_lm_server_killed_mid_run_gives_recorded_errors_not_a_hang(bundled_index, tmp_path):
    server = scripted_lm_server()
    port = server.server_address[1]

    def kill_after_calls():
        while server.calls < 6:
            time.sleep(0.01)
        server.shutdown()
        server.server_close()

    threading.Thread(target=kill_after_calls, daemon=True).start()
    out = tmp_path / "run.jsonl"
    start = time.monotonic()
    assert _eval(port, out, n=12) == 1  # questions failed
    rows = _rows(out)
    assert len(rows) == 12 and time.monotonic() - start < 60
    assert 0 < sum(1 for r in rows if r.get("error")) <= 12 - 5
    assert all(r["error"]["type"] for r in rows if r.get("error"))


def test_kill_9_of_an_eval_loses_no_finished_row(bundled_index, tmp_path, hopkit_home):
    server = scripted_lm_server()
    slow = server.RequestHandlerClass

    class SlowHandler(slow):
        def do_POST(self):
            time.sleep(0.4)
            super().do_POST()

    server.RequestHandlerClass = SlowHandler
    out = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "hopkit", "eval", "--method", "oner", "--dataset", "bundled:dev", "--n", "20",
               "--lm", "openai/scripted", "--api-base", f"http://127.0.0.1:{server.server_address[1]}/v1",
               "--set", "option_check=false", "--no-cache", "--quiet", "--out", str(out)]
    process = subprocess.Popen(command, env={**os.environ}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 5):
        time.sleep(0.1)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    time.sleep(1.0)  # the server finishes the call the killed eval had in flight
    kept = [json.loads(line)["qid"] for line in out.read_text().splitlines() if line.strip().endswith("}")]
    assert len(kept) >= 5
    before = server.calls
    assert subprocess.run(command, timeout=120).returncode == 0
    rows = _rows(out)
    assert len(rows) == 20 and [r["qid"] for r in rows][: len(kept)] == kept
    assert server.calls - before == 20 - len(kept) + 1  # only the questions not finished before the kill
    server.shutdown()


def test_a_dead_retrieval_server_gives_a_clear_error():
    from hopkit.errors import RetrieverUnavailableError
    from hopkit.retrieval.remote import RemoteColBERT

    server = scripted_lm_server()
    port = server.server_address[1]
    server.shutdown()
    server.server_close()
    with pytest.raises(RetrieverUnavailableError, match=f"127.0.0.1:{port}/api/search did not answer"):
        RemoteColBERT(f"http://127.0.0.1:{port}", timeout=2).retrieve("Who?", 3)
