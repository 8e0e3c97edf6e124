"""``hopkit.run_optimize`` is the Python peer of ``hopkit optimize``: the same two specs carried out by the same code,
so a study run from Python and one run from the command line choose, save and record the same."""

import json

import dspy
import pytest
from scripted_engine import FieldEchoEngine

import hopkit
from hopkit.cli.main import main
from hopkit.errors import InputError
from hopkit.lm.accounted import AccountedLM


@pytest.fixture
def scripted(monkeypatch):
    lm = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="Morn"), cache=False)
    monkeypatch.setattr("hopkit.cli.optimize.configure_lm", lambda args: dspy.configure(lm=lm))
    return lambda: dspy.configure(lm=lm)


def _settings_rows(folder):
    return sorted((row["qid"], row["prediction"]["answer"], json.dumps(row["metrics"], sort_keys=True))
                  for path in (folder / "settings").glob("setting-*.jsonl") for row in map(json.loads, open(path)))


def test_a_study_from_python_and_from_the_command_line_choose_save_and_record_the_same(hopkit_home, tmp_path,
                                                                                        scripted):
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    spec = hopkit.RunSpec(method="oner", dataset="bundled:dev[1-4]", retriever="bm25", lm="local/scripted")
    study = hopkit.StudySpec(demos="none", trials=2, params=("k",), test="bundled:test[1-2]", pruner="none",
                             out=str(tmp_path / "python"))
    said = []
    result = hopkit.run_optimize(spec, study, progress=False, configure_lm=scripted, say=said.append)
    (tmp_path / "study.toml").write_text('retriever = "bm25"\npruner = "none"\nquiet = true\n')
    assert main(["optimize", "--method", "oner", "--dev", "bundled:dev[1-4]", "--test", "bundled:test[1-2]",
                 "--demos", "none", "--trials", "2", "--params", "k", "--lm", "local/scripted",
                 "--config", str(tmp_path / "study.toml"), "--out", str(tmp_path / "cli")]) == 0

    python, cli = (json.loads((tmp_path / side / "summary.json").read_text()) for side in ("python", "cli"))
    for key in ("method", "dataset", "dev_n", "test_n", "metric", "best_knobs", "dev", "test", "settings"):
        assert python[key] == cli[key], key
    assert result.metric == "f1" and result.knobs == python["best_knobs"] and python["dev_n"] == 4
    assert _settings_rows(tmp_path / "python") == _settings_rows(tmp_path / "cli")
    metas = [json.loads(path.read_text())["spec"] for side in ("python", "cli")
             for path in sorted((tmp_path / side / "settings").glob("*.meta.json"))]
    assert metas[: len(metas) // 2] == metas[len(metas) // 2:]  # each setting's log records the same run spec
    assert {m["dataset"] for m in metas} == {"bundled:dev[1-4]"} and {m["n"] for m in metas} == {4}
    assert any("study" in line for line in said)  # progress lines go to the caller's ``say``


@pytest.mark.parametrize("spec_fields, study_fields, message", [
    ({"n": 5}, {}, "leave the run spec's n and questions unset"),
    ({"out": "x.jsonl"}, {}, "leave the run spec's program and out unset"),
    ({}, {"demos": "bootstrap"}, r"give StudySpec\(train='SPEC'\), e.g. 'bundled:train', or demos='none'"),
    ({}, {"costs": ("latency",)}, r"unknown cost objective \['latency'\]"),
    ({}, {"demos": "fewshot"}, "unknown demos 'fewshot'"),
    ({}, {"trials": 0}, "trials must be at least 1"),
    ({"knobs": {"k": 0}}, {}, "k"),
])
def test_a_study_that_cannot_run_is_refused_before_anything_loads(hopkit_home, tmp_path, monkeypatch, spec_fields,
                                                                   study_fields, message):
    def no_loading(*args, **kwargs):
        raise AssertionError("a dataset was loaded before the specs were checked")

    monkeypatch.setattr("hopkit.data.registry.load_dataset_spec", no_loading)
    spec = hopkit.RunSpec(method="oner", dataset="bundled:dev", retriever="bm25", **spec_fields)
    study = hopkit.StudySpec(**{"demos": "none", "out": str(tmp_path / "study"), **study_fields})
    with pytest.raises(InputError, match=message):
        hopkit.run_optimize(spec, study)
    assert not (tmp_path / "study").exists()
