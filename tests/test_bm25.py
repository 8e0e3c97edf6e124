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


def test_an_index_never_replaces_a_folder_or_file_that_is_not_an_index(corpus, tmp_path, capsys):
    from hopkit.cli.main import main
    from hopkit.errors import InputError
    from hopkit.paths import check_replaceable
    from hopkit.retrieval.staging import CHECKPOINT_MARKER

    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("a week of work")
    with pytest.raises(InputError, match="project exists and is not an index .*pass another --out"):
        BM25Retriever(corpus).save(project)
    assert main(["index", "--backend", "bm25", "--out", str(project)]) == 2
    assert "is not an index" in capsys.readouterr().err
    table = tmp_path / "table.csv"
    table.write_text("a,b\n")
    assert main(["index", "--backend", "bm25", "--out", str(table)]) == 2
    assert main(["data", "build", "--out", str(project)]) == 2  # the bundled benchmark's files, the same
    assert (project / "notes.txt").read_text() == "a week of work" and table.read_text() == "a,b\n"
    assert not list(tmp_path.glob("*.building")) and not list(tmp_path.glob("*.old"))

    empty = tmp_path / "empty"
    empty.mkdir()
    BM25Retriever(corpus).save(empty)
    BM25Retriever(corpus).save(empty)  # an index is rebuilt in place
    assert len(BM25Retriever.load(empty).corpus) == len(corpus)
    checkpoint = tmp_path / "ckpt"
    checkpoint.mkdir()
    (checkpoint / CHECKPOINT_MARKER).write_text("{}")
    check_replaceable(checkpoint, CHECKPOINT_MARKER, "a ColBERT checkpoint")  # a checkpoint is retrained in place
    with pytest.raises(InputError, match="is not a ColBERT checkpoint"):
        check_replaceable(project, CHECKPOINT_MARKER, "a ColBERT checkpoint")
