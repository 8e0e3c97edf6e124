"""The benchmarks' modes run each in a child process of its own, and a finished mode is kept in --out, not rerun."""

import json
import os

import pytest

from hopkit.evaluation.mode_processes import measure_in_processes

CHILD = """import json, os, sys
request, mode = json.loads(sys.argv[1]), sys.argv[2]
if mode == "broken":
    sys.exit("the engine fell over")
print("some chatter first")
print(json.dumps({"mode": mode, "n": request["n"], "pid": os.getpid(), "flag": os.environ.get("FLAG")}))
"""


@pytest.fixture
def child_module(tmp_path):
    (tmp_path / "fake_bench.py").write_text(CHILD)
    return lambda mode: {"PYTHONPATH": str(tmp_path), "FLAG": f"set for {mode}"}


def test_each_mode_runs_in_its_own_process_and_is_kept(child_module, tmp_path):
    out, said = tmp_path / "figures" / "bench.json", []
    done = measure_in_processes("fake_bench", {"n": 3}, ["a", "b"], out, lambda mode: "three questions", said.append,
                                env=child_module)
    assert [done[m]["mode"] for m in ("a", "b")] == ["a", "b"] and done["a"]["n"] == 3
    assert done["a"]["pid"] != done["b"]["pid"] != os.getpid() and done["b"]["flag"] == "set for b"
    assert json.loads(out.read_text()) == done and said == ["a: three questions in a fresh process ...",
                                                            "b: three questions in a fresh process ..."]
    said.clear()
    again = measure_in_processes("fake_bench", {"n": 3}, ["a", "b"], out, lambda mode: "", said.append,
                                 env=child_module)
    assert again == done and all("measured already" in line for line in said)


def test_a_failed_mode_says_why_and_keeps_the_modes_before_it(child_module, tmp_path):
    out = tmp_path / "bench.json"
    with pytest.raises(RuntimeError, match="mode broken failed: the engine fell over"):
        measure_in_processes("fake_bench", {"n": 1}, ["a", "broken"], out, lambda mode: "", lambda text: None,
                             env=child_module)
    assert list(json.loads(out.read_text())) == ["a"]
