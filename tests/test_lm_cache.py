"""The LM answer cache knows its server: an answer is keyed by the endpoint, the reachability check is never a cached
reply, a failed or unparsable answer is not stored (a rerun asks again), settings that change no answer may change
on resume, and a run with failed questions ends non-zero with how to retry."""

import json
from pathlib import Path

import dspy
import pytest
from lm_servers import scripted_lm_server

from hopkit.cli.main import main
from hopkit.evaluation.run_log import final_rows, parse_lines


@pytest.fixture
def answer_cache(tmp_path):
    dspy.configure_cache(enable_disk_cache=True, enable_memory_cache=True, disk_cache_dir=str(tmp_path / "cache"))
    yield
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)


@pytest.fixture(scope="module")
def bundled_index(hopkit_home):
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0


def _eval(port, out, *extra, n=3):
    return main(["eval", "--method", "oner", "--dataset", "bundled:dev", "--n", str(n), "--lm", "openai/scripted",
                 "--set", "option_check=false", "--api-base", f"http://127.0.0.1:{port}/v1", "--lm-timeout", "5",
                 "--quiet", "--out", str(out), *extra])


def _rows(out):
    return final_rows(parse_lines(Path(out).read_text().splitlines())[0])


def test_a_dead_server_is_not_answered_from_the_cache(bundled_index, answer_cache, tmp_path, capsys):
    server = scripted_lm_server()
    port = server.server_address[1]
    assert _eval(port, tmp_path / "live.jsonl") == 0
    server.shutdown()
    server.server_close()
    capsys.readouterr()
    dead = tmp_path / "dead.jsonl"
    assert _eval(port, dead) == 2  # the same command, its server gone
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "did not answer" in err[0] and not dead.exists()


def test_answers_are_keyed_by_the_endpoint(bundled_index, answer_cache, tmp_path):
    first, second = scripted_lm_server("Morn"), scripted_lm_server("Vale")
    assert _eval(first.server_address[1], tmp_path / "first.jsonl") == 0
    assert _eval(first.server_address[1], tmp_path / "again.jsonl") == 0
    assert first.calls == (1 + 3) + 1  # the second run: its answers from the cache, only the check asked
    assert _eval(second.server_address[1], tmp_path / "second.jsonl") == 0
    assert {r["prediction"]["answer"] for r in _rows(tmp_path / "second.jsonl")} == {"Vale"}
    assert second.calls == 1 + 3


def test_an_unparsable_answer_is_not_cached_and_a_rerun_asks_again(bundled_index, answer_cache, tmp_path, capsys):
    server = scripted_lm_server()
    server.unparsable = True
    out = tmp_path / "run.jsonl"
    assert _eval(server.server_address[1], out) == 1  # every question failed: not finished
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "3 of 3 questions failed" in err[0] and "run the same command again" in err[0]
    assert all(r.get("error") for r in _rows(out))
    server.unparsable = False
    before = server.calls
    assert _eval(server.server_address[1], out) == 0
    assert server.calls - before == 1 + 3  # asked again, not replayed
    assert {r["prediction"]["answer"] for r in _rows(out)} == {"Morn"}


def test_settings_that_change_no_answer_may_change_on_resume(bundled_index, answer_cache, tmp_path, capsys):
    server = scripted_lm_server()
    port = server.server_address[1]
    out = tmp_path / "run.jsonl"
    assert _eval(port, out, n=2) == 0
    assert _eval(port, out, "--no-cache", "--threads", "2", n=3) == 0  # more questions, no cache, other threads
    assert len(_rows(out)) == 3
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["spec"]["n"] == 3 and meta["spec"]["cache"] is False  # the metadata records the resume's values
    capsys.readouterr()
    assert _eval(port, out, "--set", "k=3", n=3) == 2  # a knob changes answers: refused, naming it
    assert "other settings (knobs" in capsys.readouterr().err
