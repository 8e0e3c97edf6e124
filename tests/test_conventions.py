"""Other tools' conventions: DSPy's metrics read hopkit's examples, hopkit's metrics are exported, and FlashRAG's
dataset and corpus lines load, through ``qa:`` and ``hopkit index --corpus`` alike."""

import json

import dspy

import hopkit
from hopkit.cli.main import main
from hopkit.data.corpus import Corpus
from hopkit.data.registry import load_dataset_spec


def test_dspys_answer_metrics_read_hopkits_examples(bundled_dev):
    example = bundled_dev.examples[0]
    assert example.answer == example.answers[0]
    right, wrong = dspy.Prediction(answer=example.answers[0]), dspy.Prediction(answer="no such answer")
    assert dspy.evaluate.answer_exact_match(example, right) and not dspy.evaluate.answer_exact_match(example, wrong)
    assert "answer" not in example.inputs()


def test_the_metrics_are_exported():
    assert hopkit.get_metric("f1") is hopkit.METRICS["f1"]
    assert hopkit.exact_match("The Morn", "morn") == 1.0 and hopkit.token_f1("Port Velmar", "Velmar") > 0
    assert hopkit.recall_at(["a", "b"], ["b"], 2) == 1.0 and hopkit.cover_exact_match("in Morn today", "Morn") == 1.0


def _flashrag(tmp_path):
    questions = tmp_path / "test.jsonl"
    questions.write_text(json.dumps({"id": "test_0", "question": "Where was Orvan Kellis born?",
                                     "golden_answers": ["Port Velmar"], "metadata": {}}) + "\n")
    corpus = tmp_path / "wiki.jsonl"
    corpus.write_text("".join(json.dumps(row) + "\n" for row in [
        {"id": "0", "contents": '"Orvan Kellis"\nOrvan Kellis is a novelist born in Port Velmar.'},
        {"id": "1", "contents": '"Port Velmar"\nPort Velmar is a city in Tarvania.'}]))
    return questions, corpus


def test_flashrag_lines_load_as_a_dataset_and_as_an_index_corpus(tmp_path):
    questions, corpus = _flashrag(tmp_path)
    data = load_dataset_spec(f"qa:{questions}@{corpus}")
    assert data.examples[0].qid == "test_0" and data.examples[0].answers == ["Port Velmar"]
    passage = data.corpus["0"]
    assert passage.title == "Orvan Kellis" and passage.text.startswith("Orvan Kellis is a novelist")
    assert [p.pid for p in Corpus.from_file(corpus)] == ["0", "1"]
    assert main(["index", "--backend", "bm25", "--corpus", str(corpus), "--out", str(tmp_path / "index")]) == 0


def test_dspys_whole_program_save_and_load(tmp_path, bundled_dev):
    program = hopkit.OneR(hopkit.BM25(bundled_dev.corpus), k=3)
    program.save(str(tmp_path / "whole"), save_program=True)
    loaded = dspy.load(str(tmp_path / "whole"), allow_pickle=True)
    question = bundled_dev.examples[0].question
    assert ([p.pid for p in loaded.retriever.retrieve(question, 3)]
            == [p.pid for p in program.retriever.retrieve(question, 3)])
    assert loaded.k == 3 and loaded.method_name == "oner"
