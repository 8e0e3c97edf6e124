import copy

import dspy
import pytest
from dspy.utils import DummyLM

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.errors import InputError, UnknownNameError
from hopkit.programs.registry import build_program
from hopkit.retrieval.bm25 import BM25Retriever


@pytest.fixture()
def retriever():
    return BM25Retriever(Corpus([Passage("a", "Port Velmar", "Port Velmar is a city in Tarvania."),
                                 Passage("b", "Orvan Kellis", "Orvan Kellis is a novelist born in Port Velmar.")]))


def test_nor_direct_returns_the_common_prediction_shape():
    dspy.configure(lm=DummyLM([{"answer": "Tarvania"}]))
    prediction = build_program("nor")(question="Where?")
    assert prediction.answer == "Tarvania" and prediction.citations == [] and prediction.retrieved == []
    assert prediction.trace["method"] == "nor"


def test_oner_cot_reads_retrieved_paragraphs_and_cites_them(retriever):
    lm = DummyLM([{"reasoning": "Kellis was born in Port Velmar.", "answer": "Port Velmar"}])
    dspy.configure(lm=lm)
    prediction = build_program("oner-cot", retriever=retriever, k=2)(question="Where was Orvan Kellis born?")
    assert prediction.answer == "Port Velmar"
    assert prediction.citations[0] == "b" and set(prediction.retrieved) == {"a", "b"}
    assert prediction.trace["thought"] == "Kellis was born in Port Velmar."
    prompt = lm.history[-1]["messages"][-1]["content"]
    assert "Wikipedia Title: Orvan Kellis" in prompt


def test_knobs_are_validated_against_their_declared_ranges(retriever):
    with pytest.raises(InputError, match=r"outside its range 1\.\.15"):
        build_program("oner", retriever=retriever, k=40)
    with pytest.raises(InputError, match="has no knob 'theta'"):
        build_program("oner", retriever=retriever, theta=0.5)
    with pytest.raises(InputError, match="needs a retriever"):
        build_program("oner")
    with pytest.raises(UnknownNameError):
        build_program("searchin")


def test_program_copies_share_the_retriever(retriever):
    program = build_program("oner", retriever=retriever)
    assert program.retriever.inner is retriever  # counted in the usage scope, whoever built the program
    assert copy.deepcopy(program).retriever is program.retriever
    assert program.reset_copy().retriever is program.retriever


def test_a_field_marker_written_into_the_answer_is_removed():
    from hopkit.programs.prediction import hop_prediction

    assert hop_prediction("John Lennon Museum[[ ## completed ## ]]", [], [], {}).answer == "John Lennon Museum"
