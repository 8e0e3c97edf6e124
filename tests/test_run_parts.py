"""A run's parts, opened once from its spec: every program built over them shares the retriever, reader, LM and
task, and each (method, profile) its own demonstrations, recorded as its log records them."""

import json

import dspy
import pytest
from scripted_engine import FieldEchoEngine

import hopkit
from hopkit.errors import MissingArtifactError
from hopkit.lm.accounted import AccountedLM
from hopkit.run.parts import open_parts
from hopkit.spec import RunSpec


@pytest.fixture
def scripted(hopkit_home):
    from hopkit.cli.main import main

    lm = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="Morn"), cache=False)
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    return lambda: dspy.configure(lm=lm)


def test_programs_over_one_set_of_parts_share_the_retriever_and_keep_their_own_demonstrations(scripted):
    data = hopkit.load_dataset("bundled:dev")
    spec = RunSpec(method="ircot", dataset="bundled:dev", retriever="bm25", knobs={"k": 4})
    parts = open_parts(spec, data, [("ircot", "paper"), ("oner", "hopkit")], configure_lm=scripted)
    ircot, oner = parts.program("ircot", "paper"), parts.program("oner", "hopkit", {"k": 3})
    assert ircot.knobs.k == 4 and oner.knobs.k == 3  # the spec's knobs unless others are given
    assert ircot.retriever is oner.retriever is parts.retriever and parts.reader is None  # neither reads with one
    assert parts.recorded("ircot", "paper") == {"retriever": "bm25", "demos_from": "bundled:train"}
    assert parts.recorded("oner", "hopkit")["demos_from"] == "none"  # OneR reads zero-shot under hopkit's profile
    assert oner(question=data.examples[0].question).answer == "Morn"


def test_a_method_without_retrieval_opens_no_retriever(scripted):
    parts = open_parts(RunSpec(method="nor", dataset="bundled:dev"), hopkit.load_dataset("bundled:dev"),
                       configure_lm=scripted)
    assert parts.retriever is None and parts.reader is None and parts.corpus is not None  # the dataset's, to cite
    assert parts.program()(question="Who founded Morn?").answer == "Morn"


def test_a_missing_train_split_is_refused_before_the_lm_loads(hopkit_home, tmp_path):
    loaded = []
    spec = RunSpec(method="ircot", dataset="bundled:dev", demos_from=f"musique:train@{tmp_path / 'none.jsonl'}")
    with pytest.raises(MissingArtifactError):
        open_parts(spec, hopkit.load_dataset("bundled:dev"), configure_lm=lambda: loaded.append(1))
    assert loaded == []


def test_run_eval_from_python_writes_the_log_hopkit_eval_writes(scripted, tmp_path):
    spec = RunSpec(method="oner", dataset="bundled:dev", n=2, retriever="bm25", knobs={"k": 3},
                   out=str(tmp_path / "oner.jsonl"))
    run = hopkit.run_eval(spec, progress=False, configure_lm=scripted)
    assert run.questions == 2 and len(run.rows) == 2 and run.path == tmp_path / "oner.jsonl"
    meta = json.loads((tmp_path / "oner.meta.json").read_text())
    assert meta["knobs"] == {"k": 3} and meta["spec"]["method"] == "oner" and meta["demos_from"] == "none"
    again = hopkit.run_eval(spec, progress=False, configure_lm=scripted, say=lambda line: None)
    assert again.resumed == 2  # the log resumes, as eval's does
