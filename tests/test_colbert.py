"""A real colbert-ai index: derived MiniLM checkpoint, PLAID build, search, atomicity, in-process training."""

import copy
import json

import pytest

from hopkit.data.corpus import Corpus
from hopkit.retrieval.colbert.checkpoints import derive_from_minilm
from hopkit.retrieval.colbert.index import ColBERTIndexSettings, build_colbert_index
from hopkit.retrieval.colbert.retriever import ColBERTRetriever
from hopkit.retrieval.loading import load_index

pytestmark = pytest.mark.timeout(1200)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    return str(derive_from_minilm(tmp_path_factory.mktemp("ckpt") / "colbert-minilm"))


@pytest.fixture(scope="module")
def slice_corpus(bundled_dev):
    people = [p for p in bundled_dev.corpus if p.pid.startswith("person-")][:40]
    works = [p for p in bundled_dev.corpus if p.pid.startswith("work-")][:40]
    return Corpus(people + works)


@pytest.fixture(scope="module")
def index(checkpoint, slice_corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("idx") / "slice.colbert"
    return build_colbert_index(slice_corpus, checkpoint, out, ColBERTIndexSettings(nbits=2, kmeans_niters=2))


def test_index_records_how_it_was_built(index, slice_corpus, checkpoint):
    manifest = json.loads((index / "hopkit-index.json").read_text())
    assert manifest["checkpoint"] == checkpoint and manifest["settings"]["nbits"] == 2
    assert manifest["corpus_sha256"] == slice_corpus.fingerprint() and manifest["index_bytes"] > 0
    assert manifest["kmeans_ran_on"] == "faiss"  # "auto" on a machine without a GPU


def test_an_index_clustered_by_torchs_kmeans_finds_the_same_paragraphs(index, slice_corpus, checkpoint, tmp_path):
    from colbert.indexing import collection_indexer

    original = collection_indexer.compute_faiss_kmeans
    torch_index = build_colbert_index(slice_corpus, checkpoint, tmp_path / "torch.colbert",
                                      ColBERTIndexSettings(nbits=2, kmeans_niters=2, kmeans="torch"))
    assert collection_indexer.compute_faiss_kmeans is original
    assert json.loads((torch_index / "hopkit-index.json").read_text())["kmeans_ran_on"] == "torch"
    by_torch, by_faiss = load_index(torch_index), load_index(index)
    for position in range(0, 80, 8):
        query = slice_corpus.at(position).title
        assert by_torch.retrieve(query, 1)[0].pid == by_faiss.retrieve(query, 1)[0].pid == slice_corpus.at(position).pid


def test_search_finds_a_paragraph_by_its_own_words(index, slice_corpus):
    retriever = load_index(index)
    assert isinstance(retriever, ColBERTRetriever)
    target = slice_corpus.at(7)
    hits = retriever.retrieve(f"{target.title} {target.text.split('.')[0]}", 5)
    assert hits[0].pid == target.pid and [h.rank for h in hits] == [1, 2, 3, 4, 5]
    assert hits[0].score >= hits[1].score
    batch = retriever.retrieve_batch([target.title, slice_corpus.at(50).title], 3)
    assert len(batch) == 2 and batch[0][0].pid == target.pid and batch[1][0].pid == slice_corpus.at(50).pid
    assert copy.deepcopy(retriever) is retriever


def test_a_crashed_rebuild_leaves_the_old_index_loadable(index, slice_corpus, checkpoint, monkeypatch):
    import colbert

    def crash(*args, **kwargs):
        raise RuntimeError("killed mid-build")

    monkeypatch.setattr(colbert.Indexer, "index", crash)
    with pytest.raises(RuntimeError):
        build_colbert_index(slice_corpus, checkpoint, index)
    assert (index.parent / (index.name + ".building")).exists()  # the half-built copy sits aside
    assert load_index(index).retrieve(slice_corpus.at(3).title, 1)[0].pid == slice_corpus.at(3).pid


def test_compat_patch_trains_in_process_and_restores_torch(checkpoint, slice_corpus, tmp_path):
    import torch

    from hopkit.retrieval.colbert.compat import PassThroughParallel, single_process_training
    from hopkit.retrieval.colbert.training import TrainSettings, train_colbert

    original = torch.nn.parallel.DistributedDataParallel
    with single_process_training():
        assert torch.nn.parallel.DistributedDataParallel is PassThroughParallel
    assert torch.nn.parallel.DistributedDataParallel is original
    rows = [{"query": f"Where was {p.title} born?", "positive": p.pid, "negative": slice_corpus.at(i + 1).pid}
            for i, p in enumerate(list(slice_corpus)[:8])]
    triples = tmp_path / "triples.jsonl"
    triples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = train_colbert(checkpoint, triples, slice_corpus, tmp_path / "ft", TrainSettings(steps=2, bsize=2, warmup=1))
    assert (out / "model.safetensors").is_file() and (out / "artifact.metadata").is_file()
    assert torch.nn.parallel.DistributedDataParallel is original
