"""A study's splits from different files retrieve from their own paragraphs: the test split's questions are scored
over the test file's corpus and a teleprompter's training traces retrieve from the train file's, not from dev's."""

import json
from pathlib import Path

import dspy
import pytest
from scripted_engine import FieldEchoEngine

from hopkit.cli.main import main
from hopkit.data.registry import load_dataset_spec
from hopkit.errors import MissingArtifactError
from hopkit.lm.accounted import AccountedLM
from hopkit.run.parts import open_parts
from hopkit.spec import RunSpec


def _split(folder: Path, name: str, people: list[tuple[str, str]]) -> str:
    """A question file over its own corpus: who directed each film (one paragraph a film)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}-corpus.jsonl").write_text("".join(
        json.dumps({"title": film, "text": f"{film} is a film directed by {director}."}) + "\n"
        for film, director in people))
    (folder / f"{name}.jsonl").write_text("".join(
        json.dumps({"id": f"{name}{i}", "question": f"Who directed {film}?", "answers": [director],
                    "gold_titles": [film]}) + "\n" for i, (film, director) in enumerate(people)))
    return f"qa:{folder / f'{name}.jsonl'}@{folder / f'{name}-corpus.jsonl'}"


@pytest.fixture
def three_files(tmp_path):
    # the corpora's default indexes are named after their content, so these tests share them (HOPKIT_HOME is shared)
    return {name: _split(tmp_path, name, people) for name, people in {
        "train": [("Grey Mill", "Ada Lund"), ("Salt Road", "Bo Karm")],
        "dev": [("Alba Rivers", "Tomas Brenn"), ("Quiet Harbour", "Ines Valo")],
        "test": [("North Pier", "Cleo Marsh"), ("Iron Bell", "Dag Holm")]}.items()}


def _scripted(monkeypatch, tmp_path) -> str:
    """A scripted LM for the study, and its study file (the settings optimize takes from one)."""
    lm = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="someone"), cache=False)
    monkeypatch.setattr("hopkit.cli.optimize.configure_lm", lambda args: dspy.configure(lm=lm))
    study = tmp_path / "study.toml"
    study.write_text('n_dev = 1\nretriever = "bm25"\nquiet = true\n')
    return str(study)


def test_the_parts_retrieve_over_each_datasets_own_corpus(hopkit_home, three_files):
    for spec in three_files.values():
        assert main(["index", "--backend", "bm25", "--dataset", spec]) == 0
    dev, test = load_dataset_spec(three_files["dev"]), load_dataset_spec(three_files["test"])
    parts = open_parts(RunSpec(method="oner", dataset=three_files["dev"], retriever="bm25"), dev, demos=False,
                       configure_lm=lambda: None)
    assert parts.retriever_for(load_dataset_spec(three_files["dev"])) is parts.retriever  # the same paragraphs
    over_test = parts.retriever_for(test, "test")
    found = {p.pid for p in over_test.retrieve("Who directed North Pier?", 2)}
    assert found and found <= {p.pid for p in test.corpus}
    assert parts.retriever_for(test) is over_test  # opened once


def test_a_split_without_its_index_is_refused_with_the_command_that_builds_it(monkeypatch, tmp_path, three_files):
    monkeypatch.setenv("HOPKIT_HOME", str(tmp_path / "home"))  # a cache where the other tests built no index
    assert main(["index", "--backend", "bm25", "--dataset", three_files["dev"]]) == 0
    dev, test = load_dataset_spec(three_files["dev"]), load_dataset_spec(three_files["test"])
    parts = open_parts(RunSpec(method="oner", dataset=three_files["dev"], retriever="bm25"), dev, demos=False,
                       configure_lm=lambda: None)
    with pytest.raises(MissingArtifactError, match=r"the test split .*`hopkit index --backend bm25 --dataset qa:"):
        parts.retriever_for(test, "test")


def test_optimize_scores_the_test_split_over_the_test_files_corpus(monkeypatch, hopkit_home, tmp_path, three_files):
    for name in ("dev", "test"):
        assert main(["index", "--backend", "bm25", "--dataset", three_files[name]]) == 0
    study = _scripted(monkeypatch, tmp_path)
    out = tmp_path / "study"
    assert main(["optimize", "--method", "oner", "--dev", three_files["dev"], "--test", three_files["test"],
                 "--demos", "none", "--trials", "1", "--params", "k", "--config", study, "--out", str(out)]) == 0
    test_pids = {p.pid for p in load_dataset_spec(three_files["test"]).corpus}
    rows = [json.loads(line) for path in (out / "test").glob("*.jsonl") for line in open(path)]
    assert rows and all(row["prediction"]["retrieved"] for row in rows)
    assert all(set(row["prediction"]["retrieved"]) <= test_pids for row in rows)
    assert all(set(row["gold_pids"]) <= set(row["prediction"]["retrieved"]) for row in rows)  # its gold is read


def test_bootstrapped_demonstrations_retrieve_from_the_train_files_corpus(monkeypatch, hopkit_home, tmp_path,
                                                                        three_files):
    for name in ("train", "dev"):
        assert main(["index", "--backend", "bm25", "--dataset", three_files[name]]) == 0
    study = _scripted(monkeypatch, tmp_path)
    seen = []

    def compile_demos(kind, student, trainset, metric, **settings):  # what the teleprompter's traces would read
        seen.extend(p.pid for ex in trainset for p in student.retriever.retrieve(ex.question, 2))
        return student

    monkeypatch.setattr("hopkit.optimize.runner.compile_demos", compile_demos)
    assert main(["optimize", "--method", "oner", "--train", three_files["train"], "--dev", three_files["dev"],
                 "--demos", "bootstrap", "--trials", "1", "--params", "k", "--config", study,
                 "--out", str(tmp_path / "study")]) == 0
    train_pids = {p.pid for p in load_dataset_spec(three_files["train"]).corpus}
    assert seen and set(seen) <= train_pids


def test_reproduce_tunes_and_tests_each_over_its_own_files_corpus(monkeypatch, hopkit_home, tmp_path, three_files):
    for name in ("dev", "test"):
        assert main(["index", "--backend", "bm25", "--dataset", three_files[name]]) == 0
    lm = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="someone"), cache=False)
    monkeypatch.setattr("hopkit.cli.components.use_lm", lambda spec: dspy.configure(lm=lm))
    folder = tmp_path / "oner"
    assert main(["reproduce", "oner", "--tune", three_files["dev"], "--test", three_files["test"], "--demos-from",
                 "none", "--retriever", "bm25", "--quiet", "--out", str(folder)]) == 0

    def read(paths):
        return {pid for path in paths for line in open(path) for pid in json.loads(line)["prediction"]["retrieved"]}

    tune = read((folder / "tune-0" / "settings").glob("setting-*.jsonl"))
    test = read((folder / "test").glob("*.jsonl"))
    assert tune and tune <= {p.pid for p in load_dataset_spec(three_files["dev"]).corpus}
    assert test and test <= {p.pid for p in load_dataset_spec(three_files["test"]).corpus}
    record = json.loads((folder / "reproduce.json").read_text())
    assert (record["retriever"], record["demos_from"]) == ("bm25", "none")
