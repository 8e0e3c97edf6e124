"""Local LM calls of several hopkit processes take turns on the machine's cores (one file lock), unless
HOPKIT_CPU_TURNS=0: side by side, llama.cpp's threads wait on each other's."""

import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from hopkit.lm import cpu_turns
from hopkit.lm.cpu_turns import CpuTurns
from hopkit.lm.llama_engine import LlamaCppEngine

fcntl = pytest.importorskip("fcntl")

HOLD = """
import fcntl, os, sys, time
handle = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(handle, fcntl.LOCK_EX)
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_a_call_waits_while_another_process_holds_the_turn(tmp_path, capsys):
    path = tmp_path / "turns.lock"
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(path), "1.0"], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "holding"
        turns = CpuTurns(path)
        start = time.perf_counter()
        with turns.turn():
            waited = time.perf_counter() - start
        assert waited > 0.5 and turns.waited == pytest.approx(waited, abs=0.05)
        assert "another hopkit process is calling the local LM" in capsys.readouterr().err
    finally:
        other.wait(timeout=10)
    with turns.turn():  # released with its holder: no wait now
        pass
    assert turns.waited == pytest.approx(waited, abs=0.05)


def _engine_with_fake_model(monkeypatch, tmp_path, **kwargs):
    path = tmp_path / "turns.lock"
    monkeypatch.setattr(cpu_turns, "default_turn_file", lambda: path)
    engine = LlamaCppEngine(tmp_path / "model.gguf", **kwargs)
    held = []

    def create_chat_completion(**_):
        probe = open(path, "a+")  # another open file: its lock conflicts with the call's while that holds the turn
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(False)
        except BlockingIOError:
            held.append(True)
        finally:
            probe.close()
        return {"choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}], "usage": {}}

    monkeypatch.setattr(engine, "_model", lambda scoring=False: SimpleNamespace(
        create_chat_completion=create_chat_completion, reset=lambda: None))
    request = SimpleNamespace(system=None, messages=[], config=SimpleNamespace(
        temperature=None, max_tokens=8, stop=(), seed=None, top_p=None, logprobs=None))
    engine.complete(request)
    return engine, held


def test_the_engine_holds_the_turn_during_each_call(monkeypatch, tmp_path):
    monkeypatch.delenv("HOPKIT_CPU_TURNS", raising=False)
    engine, held = _engine_with_fake_model(monkeypatch, tmp_path)
    assert held == [True] and engine.dump_state()["cpu_turns"] is True


def test_turns_are_off_when_asked(monkeypatch, tmp_path):
    monkeypatch.setenv("HOPKIT_CPU_TURNS", "0")
    engine, held = _engine_with_fake_model(monkeypatch, tmp_path)
    assert held == [False] and engine.turns is None
    engine, held = _engine_with_fake_model(monkeypatch, tmp_path, cpu_turns=True)  # the argument wins
    assert held == [True]
