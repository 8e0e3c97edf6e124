"""calibrate-reader: pairs from a dev set, and the reliability table of a reader's confidence."""

import math

import pytest

from hopkit.calibration.pairs import calibration_pairs, passage_answers_question
from hopkit.calibration.table import calibrate, format_calibration
from hopkit.data.corpus import Corpus
from hopkit.data.examples import make_example
from hopkit.data.passage import Passage
from hopkit.errors import InputError
from hopkit.reader.protocol import Span
from hopkit.retrieval.bm25 import BM25Retriever

CORPUS = Corpus([Passage("a", "Orvan Kellis", "Orvan Kellis is a novelist born in Port Velmar in 1873."),
                 Passage("b", "Port Velmar", "Port Velmar is a city in Tarvania."),
                 Passage("c", "Glass Orchard", "The Glass Orchard is a novel by Orvan Kellis.")])


def test_ece_and_theta_sweep_of_a_known_table():
    records = [(0.95, True), (0.95, True), (0.95, False), (0.15, False), (0.15, False), (None, True)]
    result = calibrate(records)
    assert (result.n, result.unscored, result.positives) == (6, 1, 2)
    assert [(b.low, b.n) for b in result.bins] == [(0.1, 2), (0.9, 3)]
    assert math.isclose(result.ece, 3 / 5 * abs(0.95 - 2 / 3) + 2 / 5 * 0.15)
    by_theta = {p.theta: p for p in result.sweep}
    assert math.isclose(by_theta[0.1].f1, 2 * 0.4 * 1.0 / 1.4) and by_theta[0.1].above == 5
    assert math.isclose(by_theta[0.5].f1, 0.8) and by_theta[0.5].above == 3
    assert result.suggested_theta == 0.9  # ties go to the stricter theta
    table = format_calibration(result, "scripted")
    assert "ECE 0.230" in table and "suggested theta: 0.9" in table


def test_a_confidence_that_never_separates_suggests_no_theta():
    assert calibrate([(0.05, True), (0.05, False)]).suggested_theta is None


def test_hop_pairs_are_labelled_by_the_hops_gold_paragraph():
    example = make_example("q1", "Where was the author of the Glass Orchard born?", ["Port Velmar"], ["c", "a"],
                           hop_queries=["Who wrote the Glass Orchard novel?", "Where was Orvan Kellis born?"])
    pairs = list(calibration_pairs([example], BM25Retriever(CORPUS)))  # depth 1: the top passage
    assert [(p.query, p.passage.pid, p.answers) for p in pairs] == [
        ("Who wrote the Glass Orchard novel?", "c", True), ("Where was Orvan Kellis born?", "a", True)]


def test_question_pairs_need_an_answer_the_question_does_not_name():
    novelist = CORPUS["a"]
    assert passage_answers_question(novelist, "Where was Orvan Kellis born?", ["Port Velmar"])
    assert not passage_answers_question(novelist, "Which is older, Orvan Kellis or Ada Pell?", ["Orvan Kellis"])
    assert not passage_answers_question(novelist, "Was Orvan Kellis a novelist?", ["yes"])
    with pytest.raises(InputError, match="--queries questions"):
        list(calibration_pairs([make_example("q", "Who?", ["x"], ["a"])], BM25Retriever(CORPUS), "hops"))


def test_the_command_resumes_from_its_pair_log(tmp_path, bundled_dev, monkeypatch, capsys):
    """A scripted reader (confidence 0.9 on gold-looking passages, 0.2 elsewhere) through the whole command."""
    from hopkit.cli import calibrate as command
    from hopkit.cli.main import main

    class ScriptedReader:
        confidence_scale = "probability"

        def __init__(self):
            self.calls = 0

        def read(self, question, passages):
            self.calls += 1
            return Span(text="x", score=0.9 if self.calls % 2 else 0.2, pid=passages[0].pid)

    reader = ScriptedReader()
    monkeypatch.setattr("hopkit.reader.loading.open_reader", lambda spec: reader)
    monkeypatch.setattr(command, "load_retriever", lambda args, dataset: BM25Retriever(dataset.corpus))
    monkeypatch.setattr(command, "configure_lm", lambda args: None)
    out = tmp_path / "pairs.jsonl"
    main(["calibrate-reader", "--dataset", "bundled:dev", "--n", "2", "--out", str(out), "--quiet"])
    first = capsys.readouterr().out
    read = reader.calls
    assert read >= 2 and "ECE" in first and "| theta |" in first
    main(["calibrate-reader", "--dataset", "bundled:dev", "--n", "2", "--out", str(out), "--quiet"])
    assert reader.calls == read and "already read" in capsys.readouterr().out
    assert len(out.read_text().splitlines()) == read


def test_deeper_pairs_bring_passages_that_do_not_answer():
    example = make_example("q1", "Where was the author of the Glass Orchard born?", ["Port Velmar"], ["c", "a"],
                           hop_queries=["Who wrote the Glass Orchard novel?", "Where was Orvan Kellis born?"])
    pairs = list(calibration_pairs([example], BM25Retriever(CORPUS), depth=3))
    assert len(pairs) == 6 and sum(p.answers for p in pairs) == 2 and len({p.key for p in pairs}) == 6


def test_the_pair_log_refuses_other_settings_and_other_files_and_mends_a_torn_line(tmp_path):
    from hopkit.calibration.pair_log import PairLog

    settings = {"dataset": "bundled:dev", "dataset_spec": "bundled:dev", "reader": "lm", "depth": 3}
    log = PairLog(tmp_path / "pairs.jsonl", settings)
    log.append({"key": "q1\tWho?\ta", "confidence": 0.9, "answers": True})
    with pytest.raises(InputError, match=r"other settings \(depth, reader\); pass another --out"):
        PairLog(tmp_path / "pairs.jsonl", {**settings, "reader": "extractive", "depth": 1})
    moved = PairLog(tmp_path / "pairs.jsonl", {**settings, "dataset_spec": "bundled:dev@elsewhere"})  # a label
    assert list(moved.records) == ["q1\tWho?\ta"]

    (tmp_path / "pairs.jsonl").write_text((tmp_path / "pairs.jsonl").read_text() + '{"key": "q2\\tWhe')  # a kill
    mended = PairLog(tmp_path / "pairs.jsonl", settings)
    mended.append({"key": "q2\tWhere?\tb", "confidence": 0.2, "answers": False})
    assert list(PairLog(tmp_path / "pairs.jsonl", settings).records) == ["q1\tWho?\ta", "q2\tWhere?\tb"]

    run_log = tmp_path / "eval.jsonl"
    run_log.write_text('{"qid": "q1", "metrics": {"f1": 1.0}}\n')
    with pytest.raises(InputError, match="eval.jsonl exists and is not a calibrate-reader log .*pass another --out"):
        PairLog(run_log, settings)
    assert run_log.read_text() == '{"qid": "q1", "metrics": {"f1": 1.0}}\n'
