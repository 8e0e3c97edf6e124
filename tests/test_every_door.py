"""One run, every door: the same scripted run through eval, optimize (one trial), ablate (one variant), sweep (one
value) and the Python API writes the same run metadata, the run spec that ``hopkit eval --like`` reads."""

import json

import dspy
from lm_servers import scripted_lm_server

import hopkit
from hopkit.cli.main import main
from hopkit.spec import MECHANICS

# what a door records beside the run itself: the labels of an ablation's variant, a study's metric, where the run
# came from, what ``auto`` resolved
DOOR_LABELS = {"name", "table", "metric", "door", "demos_from", "fixed_knobs", "dataset"}


def _comparable(meta_path):
    meta = json.loads(meta_path.read_text())
    meta["spec"] = {k: v for k, v in meta["spec"].items() if k not in MECHANICS}
    return {k: v for k, v in meta.items() if k not in DOOR_LABELS}


def test_eval_optimize_ablate_and_the_api_record_the_same_run(tmp_path, hopkit_home):
    server = scripted_lm_server()
    base = f"http://127.0.0.1:{server.server_address[1]}/v1"
    lm = ["--lm", "openai/scripted", "--api-base", base, "--no-cache"]
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    assert main(["eval", "--method", "oner", "--dataset", "bundled:dev", "--n", "2", "--set", "k=3",
                 "--retriever", "bm25", "--quiet", "--out", str(tmp_path / "eval.jsonl"), *lm]) in (0, 1)
    study = tmp_path / "study.toml"
    study.write_text('n_dev = 2\nretriever = "bm25"\nquiet = true\n')
    assert main(["optimize", "--method", "oner", "--dataset", "bundled", "--demos", "none", "--trials", "1",
                 "--params", "paragraph_words", "--set", "k=3", "--profile", "hopkit", "--config", str(study),
                 "--out", str(tmp_path / "study"), *lm]) == 0
    assert main(["ablate", "--method", "oner", "--variants", "base:k=3", "--dataset", "bundled:dev", "--n", "2",
                 "--retriever", "bm25", "--quiet", "--out", str(tmp_path / "ablate"), *lm]) == 0
    assert main(["sweep", "--method", "oner", "--knob", "k", "--values", "3", "--dataset", "bundled:dev", "--n", "2",
                 "--retriever", "bm25", "--quiet", "--out-dir", str(tmp_path / "sweep"), *lm]) == 0
    dspy.configure(lm=dspy.LM("openai/scripted", api_base=base, api_key="none", cache=False))
    data = hopkit.load_dataset("bundled:dev")
    hopkit.evaluate(hopkit.OneR(hopkit.BM25(data.corpus), k=3), data, n=2, out=tmp_path / "api.jsonl", progress=False)

    doors = {"eval": _comparable(tmp_path / "eval.meta.json"),
             "optimize": _comparable(next((tmp_path / "study" / "settings").glob("setting-*.meta.json"))),
             "ablate": _comparable(tmp_path / "ablate" / "base.meta.json"),
             "sweep": _comparable(next((tmp_path / "sweep").rglob("*.meta.json"))),
             "api": _comparable(tmp_path / "api.meta.json")}
    assert doors["eval"]["knobs"] == {"k": 3} and doors["eval"]["spec"]["method"] == "oner"
    for door, meta in doors.items():
        eval_spec = doors["eval"]["spec"]
        assert meta == doors["eval"], (door, {k: (v, eval_spec.get(k)) for k, v in meta["spec"].items()
                                              if v != eval_spec.get(k)})
    # the doors that open their parts from the flags resolve the demonstrations the same way
    demos = {door: json.loads(path.read_text())["demos_from"] for door, path in (
        ("eval", tmp_path / "eval.meta.json"), ("ablate", tmp_path / "ablate" / "base.meta.json"),
        ("sweep", next((tmp_path / "sweep").rglob("*.meta.json"))))}
    assert len(set(demos.values())) == 1, demos
    server.shutdown()
