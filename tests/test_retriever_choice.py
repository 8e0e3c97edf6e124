"""The retriever choice rule (``--retriever auto``) and fine-tuning triples from a dataset's gold paragraphs."""

import json

import pytest

from hopkit.data.corpus import Corpus
from hopkit.data.examples import make_example
from hopkit.data.passage import Passage
from hopkit.errors import InputError
from hopkit.evaluation.retriever_choice import choose_retriever
from hopkit.retrieval.bm25 import BM25Retriever
from hopkit.retrieval.colbert.gold_triples import gold_triples
from hopkit.retrieval.staging import MANIFEST

CORPUS = Corpus([Passage("a", "Port Velmar", "Port Velmar is a city in Tarvania."),
                 Passage("b", "Orvan Kellis", "Orvan Kellis is a novelist born in Port Velmar."),
                 Passage("c", "Glass Orchard", "The Glass Orchard is a novel by Orvan Kellis."),
                 Passage("d", "Glass", "Glass is a novel material made of sand.")])
QUESTIONS = [make_example("q1", "Where was the author of the Glass Orchard novel born?", ["Port Velmar"], ["c", "b"]),
             make_example("q2", "Which country is Port Velmar in?", ["Tarvania"], ["a"])]


class Fixed:
    """A retriever that always returns the same pids (stands for an index with a known ranking)."""

    def __init__(self, pids):
        self.pids = pids

    def retrieve(self, query, k):
        return [CORPUS[pid].ranked(i + 1, 1.0) for i, pid in enumerate(self.pids[:k])]


def _indexes(tmp_path, rankings):
    for backend in rankings:
        (tmp_path / backend).mkdir()
        (tmp_path / backend / MANIFEST).write_text(json.dumps({"backend": backend}))
    return (lambda backend: tmp_path / backend), (lambda folder: Fixed(rankings[folder.name]))


def test_bm25_without_measuring_when_the_corpus_has_no_colbert_index(tmp_path):
    index_for, open_index = _indexes(tmp_path, {"bm25": ["a"]})
    choice = choose_retriever(QUESTIONS, index_for, open_index, k=2)
    assert choice.backend == "bm25" and choice.recalls == {} and "no ColBERT index" in choice.summary()


MANY = [make_example(f"{ex.qid}-{i}", ex.question, ex.answers, ex.gold_pids) for i in range(10) for ex in QUESTIONS]


@pytest.mark.parametrize(("colbert", "recall", "chosen"),
                         [(["c", "b", "a"], 1.0, "colbert"), (["d", "a", "c"], 0.75, "bm25"),
                          (["d", "b"], 0.25, "bm25")])
def test_colbert_only_when_its_question_recall_is_higher_beyond_noise(tmp_path, colbert, recall, chosen):
    # BM25's c, a, d: q1 finds c of (c, b), q2 finds a: recall (0.5 + 1) / 2 = 0.75; a tie goes to BM25
    index_for, open_index = _indexes(tmp_path, {"bm25": ["c", "a", "d"], "colbert": colbert})
    choice = choose_retriever(MANY, index_for, open_index, k=3)
    assert choice.recalls == pytest.approx({"bm25": 0.75, "colbert": recall}) and choice.backend == chosen
    assert choice.summary().startswith(chosen) and f"bm25 75.0, colbert {100 * recall:.1f}" in choice.summary()
    assert "ColBERT - BM25 [" in choice.summary()


def test_a_higher_recall_within_noise_keeps_bm25(tmp_path):
    # two questions: ColBERT finds one more gold paragraph, but a paired interval over two cannot exclude 0
    index_for, open_index = _indexes(tmp_path, {"bm25": ["c", "a", "d"], "colbert": ["c", "b", "a"]})
    choice = choose_retriever(QUESTIONS, index_for, open_index, k=3)
    assert choice.recalls["colbert"] > choice.recalls["bm25"] and choice.backend == "bm25"
    assert "beyond noise" in choice.reason


def test_gold_triples_pair_each_gold_paragraph_with_bm25s_best_non_gold():
    triples = gold_triples(QUESTIONS, CORPUS, negatives=1)
    by_question = {(t["query"], t["positive"]): t["negative"] for t in triples}
    assert set(by_question) == {(QUESTIONS[0].question, "c"), (QUESTIONS[0].question, "b"),
                                (QUESTIONS[1].question, "a")}
    top_non_gold = [p.pid for p in BM25Retriever(CORPUS).retrieve(QUESTIONS[0].question, 4) if p.pid not in "cb"][0]
    assert by_question[(QUESTIONS[0].question, "c")] == top_non_gold
    assert all(t["negative"] not in QUESTIONS[i].gold_pids for i in range(2) for t in triples
               if t["query"] == QUESTIONS[i].question)


def test_gold_triples_need_gold_paragraphs():
    with pytest.raises(InputError, match="gold paragraphs"):
        gold_triples([make_example("q", "Anything?", ["x"], [])], CORPUS)


def test_auto_is_the_default_and_takes_a_named_index_as_it_is(hopkit_home, tmp_path, capsys):
    from hopkit.cli.main import build_parser, main

    assert build_parser().parse_args(["eval", "--method", "oner"]).retriever == "auto"
    rc = main(["eval-retrieval", "--dataset", "bundled:dev", "--index", str(tmp_path / "nowhere")])
    assert rc == 2 and "no index at" in capsys.readouterr().err
