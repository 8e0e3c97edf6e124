import pytest

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.errors import MissingArtifactError
from hopkit.retrieval.bm25 import BM25Retriever


@pytest.fixture()
def corpus():
    return Corpus([Passage("a", "Port Velmar", "Port Velmar is a city in Tarvania."),
                   Passage("b", "Orvan Kellis", "Orvan Kellis is a novelist born in Port Velmar."),
                   Passage("c", "Glass Orchard", "The Glass Orchard is a novel by Orvan Kellis.")])


def test_retrieve_ranks_and_scores(corpus):
    hits = BM25Retriever(corpus).retrieve("Who wrote the Glass Orchard novel?", 2)
    assert [h.pid for h in hits][0] == "c" and [h.rank for h in hits] == [1, 2]
    assert hits[0].score >= hits[1].score


def test_k_is_capped_at_corpus_size(corpus):
    assert len(BM25Retriever(corpus).retrieve("Kellis", 50)) == 3


def test_save_load_round_trip_and_atomic_replace(corpus, tmp_path):
    folder = tmp_path / "idx"
    BM25Retriever(corpus).save(folder)
    before = BM25Retriever.load(folder).retrieve("Kellis novelist", 3)
    # a crashed earlier build leaves a staging folder: it is never loaded, and the next build replaces it
    (tmp_path / "idx.building").mkdir()
    BM25Retriever(corpus).save(folder)
    assert not (tmp_path / "idx.building").exists()
    assert [p.pid for p in BM25Retriever.load(folder).retrieve("Kellis novelist", 3)] == [p.pid for p in before]


def test_missing_index_says_how_to_build(tmp_path):
    with pytest.raises(MissingArtifactError, match="hopkit index"):
        BM25Retriever.load(tmp_path / "nowhere")


def test_survives_deepcopy(corpus):
    import copy

    retriever = BM25Retriever(corpus)
    assert copy.deepcopy(retriever) is retriever
