import dspy

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.evaluation.retrieval_bench import bench_retrieval, query_items
from hopkit.retrieval.bm25 import BM25Retriever


def test_question_and_hop_queries_against_bm25():
    corpus = Corpus([Passage("w", "Glass Orchard", "Glass Orchard is a novel by Orvan Kellis."),
                     Passage("p", "Orvan Kellis", "Orvan Kellis was born in Port Velmar."),
                     Passage("x", "Salt Tide", "Salt Tide is a film.")])
    example = dspy.Example(question="Where was the author of Glass Orchard born?", gold_pids=["w", "p"],
                           hop_queries=["Who wrote Glass Orchard?", "Where was Orvan Kellis born?"])
    assert query_items([example], "hops") == [("Who wrote Glass Orchard?", ["w"]),
                                               ("Where was Orvan Kellis born?", ["p"])]
    hops = bench_retrieval(BM25Retriever(corpus), [example], k=1, warmup=0, progress=False, queries="hops")
    assert hops.n == 2 and hops.recall == 1.0 and hops.p95_ms >= hops.p50_ms >= 0
    question = bench_retrieval(BM25Retriever(corpus), [example], k=1, warmup=0, progress=False)
    assert question.n == 1 and question.recall == 0.5
