import pytest

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.errors import RetrieverUnavailableError
from hopkit.retrieval.bm25 import BM25Retriever
from hopkit.retrieval.fusion import FusionRetriever
from hopkit.retrieval.remote import RemoteColBERT
from hopkit.retrieval.server import serve_in_background


class Fixed:
    def __init__(self, pids):
        self.pids = pids

    def retrieve(self, query, k):
        return [Passage(pid, pid, f"text {pid}").ranked(rank=i + 1, score=1.0 / (i + 1))
                for i, pid in enumerate(self.pids[:k])]


def test_reciprocal_rank_fusion_by_hand():
    fused = FusionRetriever([Fixed(["a", "b", "c"]), Fixed(["c", "a", "d"])], rrf_k=60)
    hits = fused.retrieve("q", 3)
    # a: 1/61 + 1/62, c: 1/63 + 1/61, b: 1/62, d: 1/63
    assert [h.pid for h in hits] == ["a", "c", "b"]
    assert hits[0].score == pytest.approx(1 / 61 + 1 / 62) and [h.rank for h in hits] == [1, 2, 3]


@pytest.fixture()
def server():
    corpus = Corpus([Passage("a", "Port Velmar", "Port Velmar is a city in Tarvania."),
                     Passage("b", "Orvan Kellis", "Orvan Kellis is a novelist born in Port Velmar.")])
    server = serve_in_background(BM25Retriever(corpus))
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_server_client_round_trip(server):
    import json
    from urllib.request import urlopen

    with urlopen(f"{server}/api/search?query=novelist%20Kellis&k=2") as response:
        payload = json.load(response)
    top = payload["topk"][0]
    assert set(top) >= {"text", "pid", "rank", "score", "prob"}
    assert top["pid"] == "b" and top["text"].startswith("Orvan Kellis | ")
    assert sum(item["prob"] for item in payload["topk"]) == pytest.approx(1.0)
    hits = RemoteColBERT(server).retrieve("novelist Kellis", 2)
    assert [h.pid for h in hits] == ["b", "a"] and hits[0].title == "Orvan Kellis"
    assert hits[0].text == "Orvan Kellis is a novelist born in Port Velmar." and hits[0].rank == 1


def test_server_rejects_bad_requests(server):
    from urllib.error import HTTPError
    from urllib.request import urlopen

    with pytest.raises(HTTPError) as bad:
        urlopen(f"{server}/api/search?query=x&k=abc")
    assert bad.value.code == 400


def test_unreachable_server_is_a_clear_error():
    with pytest.raises(RetrieverUnavailableError, match="did not answer"):
        RemoteColBERT("http://127.0.0.1:9", timeout=2).retrieve("q", 1)


def test_dspys_colbertv2_client_is_answered_in_its_usual_forms(server):
    import dspy

    host, port = server.rsplit(":", 1)
    for client in (dspy.ColBERTv2(url=host, port=port), dspy.ColBERTv2(url=host, port=port, post_requests=True),
                   dspy.ColBERTv2(url=f"{server}/api/search")):
        hits = client("novelist Kellis", k=2)
        assert [hit["pid"] for hit in hits] == ["b", "a"] and hits[0]["long_text"]


def test_a_wrong_method_is_405_and_the_header_names_no_python(server):
    import concurrent.futures
    from urllib.error import HTTPError
    from urllib.request import Request, urlopen

    with pytest.raises(HTTPError) as wrong:
        urlopen(Request(f"{server}/api/search", method="PUT", data=b"{}"))
    assert wrong.value.code == 405 and wrong.value.headers["Allow"] == "GET, POST"
    with urlopen(f"{server}/api/search?query=Velmar&k=1") as response:
        assert "Python" not in (response.headers["Server"] or "")

    def ask(_):
        with urlopen(f"{server}/api/search?query=Velmar&k=1", timeout=5) as reply:
            return reply.status

    with concurrent.futures.ThreadPoolExecutor(40) as pool:  # a burst beyond http.server's backlog of 5
        assert list(pool.map(ask, range(40))) == [200] * 40
