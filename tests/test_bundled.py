import json

from hopkit.data.bundled.build import BundledSpec, build_bundled
from hopkit.text.normalize import normalize_answer


def test_generation_is_deterministic(tmp_path):
    spec = BundledSpec(train=30, dev=10, test=10)
    a = build_bundled(tmp_path / "a", spec)
    b = build_bundled(tmp_path / "b", spec)
    for name in ["corpus.jsonl", "train.jsonl", "dev.jsonl", "triples.jsonl"]:
        assert (a / name).read_bytes() == (b / name).read_bytes()
    other = build_bundled(tmp_path / "c", BundledSpec(seed=99, train=30, dev=10, test=10))
    assert (other / "corpus.jsonl").read_bytes() != (a / "corpus.jsonl").read_bytes()


def test_questions_are_grounded_in_their_gold_paragraphs(bundled_dev):
    corpus = bundled_dev.corpus
    assert 2000 <= len(corpus) <= 5000
    kinds = {ex.type for ex in bundled_dev.examples}
    assert {"bridge", "compositional-3hop", "compositional-4hop", "comparison", "yes-no"} <= kinds
    for ex in bundled_dev.examples:
        assert 2 <= len(ex.gold_pids) <= 4 and all(pid in corpus for pid in ex.gold_pids)
        if ex.type == "yes-no":
            assert ex.answers in (["yes"], ["no"])
            continue
        gold_text = normalize_answer(" ".join(corpus[pid].text for pid in ex.gold_pids))
        assert any(normalize_answer(a) in gold_text for a in ex.answers), ex


def test_triples_point_at_real_distinct_paragraphs(hopkit_home, bundled_dev):
    from hopkit.data.registry import bundled_dir

    rows = [json.loads(line) for line in (bundled_dir() / "triples.jsonl").read_text().splitlines()]
    assert len(rows) > 1000
    for row in rows[:500]:
        assert row["positive"] in bundled_dev.corpus and row["negative"] in bundled_dev.corpus
        assert row["positive"] != row["negative"] and row["query"]
