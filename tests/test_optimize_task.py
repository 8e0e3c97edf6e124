"""hopkit optimize answers the dev split's task as eval answers it: each trial's program gives the task's answer
form, the study tunes the task's metric, and the saved program answers that task again under eval."""

import json

import dspy
from scripted_engine import FieldEchoEngine

from hopkit.cli.main import main
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.registry import build_program, saved_predictor
from hopkit.retrieval.bm25 import BM25Retriever
from hopkit.tasks import apply_task


def test_a_fact_check_study_answers_with_labels_and_tunes_label_accuracy(monkeypatch, hopkit_home, tmp_path):
    lm = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="The evidence confirms it."), cache=False)
    monkeypatch.setattr("hopkit.cli.optimize.configure_lm", lambda args: dspy.configure(lm=lm))
    monkeypatch.setattr("hopkit.lm.factory.use_lm", lambda spec: dspy.configure(lm=lm))  # eval's LM
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:fact-check:dev"]) == 0
    study, out = tmp_path / "study.toml", tmp_path / "study"
    study.write_text('n_dev = 3\nretriever = "bm25"\nquiet = true\n')
    assert main(["optimize", "--method", "oner", "--dataset", "bundled:fact-check", "--demos", "none",
                 "--trials", "1", "--params", "k", "--config", str(study), "--out", str(out)]) == 0
    rows = [json.loads(line) for path in (out / "settings").glob("setting-*.jsonl") for line in open(path)]
    assert rows and {row["prediction"]["answer"] for row in rows} == {"SUPPORTS"}  # the label, not the sentence
    assert all("label_acc" in row["metrics"] for row in rows)
    manifest = json.loads((out / "program" / "manifest.json").read_text())
    assert manifest["metric"] == "label_acc" and manifest["task"] == "fact-check"
    log = tmp_path / "eval.jsonl"
    assert main(["eval", "--program", str(out / "program"), "--dataset", "bundled:fact-check:dev", "--n", "2",
                 "--retriever", "bm25", "--quiet", "--out", str(log)]) == 0
    assert [json.loads(line)["prediction"]["answer"] for line in open(log)] == ["SUPPORTS", "SUPPORTS"]
    assert json.loads(log.with_suffix(".meta.json").read_text())["task"] == "fact-check"


def test_a_state_saved_from_a_task_program_loads_into_the_method(hopkit_home, bundled_dev):
    retriever = BM25Retriever(bundled_dev.corpus)
    inner = build_program("oner", retriever=retriever)
    wrapped = apply_task(inner, "fact-check")
    state = wrapped.dump_state()
    name = next(name for name, _ in inner.named_predictors())
    assert name not in state and saved_predictor(state, name) is not None  # DSPy names it under the wrapper
