"""hopkit bench-retrieval on a small grown world: every figure of a row, measured in child processes."""

import json

import pytest

from hopkit.cli.main import main
from hopkit.errors import InputError
from hopkit.evaluation.scale_bench import HEADER, ScaleRow, choose_plaid, measure_search
from hopkit.retrieval.loading import parse_plaid


def test_a_bm25_row_per_size_with_build_size_memory_latency_and_recall(hopkit_home, tmp_path, capsys):
    out = tmp_path / "rows.json"
    assert main(["bench-retrieval", "--sizes", "3000,4000", "--backends", "bm25", "--n", "5", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert [r["size"] for r in rows] == [3000, 4000] and all(r["backend"] == "bm25" for r in rows)
    for row in rows:
        assert row["build_s"] > 0 and row["index_mb"] > 0 and row["build_peak_mb"] > 10
        search = row["search"]
        assert 0 < search["p50_ms"] <= search["p95_ms"] and search["batch_qps"] > 0
        assert 0.0 <= search["recall@1"] <= search["recall@15"] <= 1.0 and search["queries"] >= 10
    assert "| 4,000 | bm25 | cpu |" in capsys.readouterr().out
    assert main(["bench-retrieval", "--sizes", "3000", "--backends", "bm25", "--n", "5"]) == 0
    again = capsys.readouterr().out
    assert "indexing" not in again and "| 3,000 | bm25 | cpu | (existing) |" in again  # the index is reused


def test_plaid_settings_are_checked():
    assert parse_plaid("ncells=2,centroid_score_threshold=0.45,ndocs=1024") == {
        "ncells": 2, "centroid_score_threshold": 0.45, "ndocs": 1024}
    with pytest.raises(InputError, match="ncells"):
        parse_plaid("cells=2")
    assert main(["bench-retrieval", "--backends", "colbert,faiss"]) == 2


def test_the_plaid_grid_and_the_chosen_point():
    from hopkit.evaluation.scale_bench import ScaleRow, choose_plaid, plaid_grid

    assert plaid_grid("ncells=1,2;ndocs=256,1024") == ["ncells=1,ndocs=256", "ncells=1,ndocs=1024",
                                                      "ncells=2,ndocs=256", "ncells=2,ndocs=1024"]
    assert plaid_grid(None) == [""]
    assert plaid_grid("ncells=1,2;ndocs=256|ncells=32;ndocs=8192|ncells=1;ndocs=256") == [
        "ncells=1,ndocs=256", "ncells=2,ndocs=256", "ncells=32,ndocs=8192"]  # a reference point; repeats once

    def row(setting, recall, p50):
        return ScaleRow(5000, "colbert", None, 1.0, None, {"plaid": setting, "recall@15": recall, "p50_ms": p50})

    rows = [row("a", 0.90, 10.0), row("b", 0.995, 30.0), row("c", 1.0, 80.0), row("d", 0.985, 20.0)]
    assert choose_plaid(rows).search["plaid"] == "b"  # the fastest within 1 point of the best recall


def test_the_chosen_plaid_setting_also_keeps_whole_question_recall_where_it_was_measured():
    def row(setting, hop, question, p50):
        return ScaleRow(50000, "colbert", None, 1.0, None,
                        {"plaid": setting, "recall@15": hop, "question_recall@15": question, "p50_ms": p50})

    # hop queries saturate at every setting; whole questions tell the fast setting from the thorough ones
    rows = [row("fast", 1.0, 0.50, 10.0), row("middle", 1.0, 0.595, 20.0), row("thorough", 1.0, 0.60, 200.0)]
    assert choose_plaid(rows).search["plaid"] == "middle"
    full = dict(rows[2].search, search_peak_mb=900.0, p95_ms=250.0, batch_qps=5.0, **{"recall@1": 1.0}, queries=232)
    assert "| 100.0 | 100.0 | 60.0 | 232 |" in ScaleRow(50000, "colbert", None, 1.0, None, full).line()
    assert "question recall@15" in HEADER


def test_measure_search_reports_the_share_of_each_questions_gold_in_its_top_k():
    from hopkit.data.passage import Passage

    class Fixed:
        def retrieve(self, query, k):
            return [Passage(pid=pid, title="", text="") for pid in ("a", "b", "c")][:k]

    measured = measure_search(Fixed(), [("q", "a")], k=15, batch=4,
                              questions=[("one", ["a", "x"]), ("two", ["b", "c"])])
    assert measured["question_recall@15"] == 0.75 and measured["recall@1"] == 1.0


def test_the_kmeans_backend_reaches_the_colbert_build(monkeypatch, tmp_path):
    from hopkit.evaluation import scale_bench

    monkeypatch.setenv("HOPKIT_HOME", str(tmp_path))
    commands = []

    def child(command):
        commands.append(command)
        raise RuntimeError("stop after the build command")

    monkeypatch.setattr(scale_bench, "_child", child)
    with pytest.raises(RuntimeError):
        scale_bench.bench_sizes([3000], ["colbert"], 5, 15, 8, "CKPT", None, say=lambda _: None, kmeans="torch")
    assert commands[0][commands[0].index("--kmeans") + 1] == "torch" and "CKPT" in commands[0]
