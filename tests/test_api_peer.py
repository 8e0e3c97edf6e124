"""The Python API as a peer of ``hopkit eval``: with a plain ``dspy.LM`` its log counts LM calls, tokens and
retrievals, its metadata is the run spec, and ``hopkit eval --like`` reruns it."""

import json

import dspy
from lm_servers import scripted_lm_server

import hopkit
from hopkit.cli.main import main


def test_an_api_run_with_a_plain_dspy_lm_is_counted_and_reruns_with_like(tmp_path, hopkit_home):
    server = scripted_lm_server()
    base = f"http://127.0.0.1:{server.server_address[1]}/v1"
    dspy.configure(lm=dspy.LM("openai/scripted", api_base=base, api_key="none", cache=False))
    data = hopkit.load_dataset("bundled:dev")
    program = hopkit.OneR(hopkit.BM25(data.corpus), k=3, option_check=False)
    out = tmp_path / "api.jsonl"
    report = hopkit.evaluate(program, data, n=2, out=out, progress=False)
    assert report.n == 2 and report.cost["lm_calls"] == 1 and report.cost["retrievals"] == 1
    assert report.cost["prompt_tokens"] == 100 and report.cost["completion_tokens"] == 5
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["spec"]["method"] == "oner" and meta["spec"]["dataset"] == "bundled:dev"
    assert meta["spec"]["knobs"] == {"k": 3, "option_check": False} and meta["api_base"] == base
    assert meta["spec"]["lm"] == "openai/scripted" and meta["profile"] == "hopkit"
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0  # the command line reads an index
    again = tmp_path / "like.jsonl"
    assert main(["eval", "--like", str(out), "--out", str(again), "--quiet"]) == 0
    rows = [json.loads(line) for line in again.read_text().splitlines()]
    assert len(rows) == 2 and {r["prediction"]["answer"] for r in rows} == {"Morn"}
    assert json.loads(again.with_suffix(".meta.json").read_text())["spec"]["knobs"] == meta["spec"]["knobs"]
    server.shutdown()
