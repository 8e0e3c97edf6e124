import json

import pytest

from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.errors import CorpusError, MissingArtifactError


def test_jsonl_and_tsv_read_the_same(tmp_path):
    rows = [{"pid": "a", "title": "A", "text": "alpha text"}, {"pid": "b", "title": "B", "text": "beta text"}]
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tsv = tmp_path / "c.tsv"
    tsv.write_text("id\ttext\ttitle\na\talpha text\tA\nb\tbeta text\tB\n")
    one, two = Corpus.from_file(jsonl), Corpus.from_file(tsv)
    assert [p.pid for p in one] == ["a", "b"] and one["b"].title == "B"
    assert one.fingerprint() == two.fingerprint()


def test_duplicate_pid_is_a_clear_error():
    with pytest.raises(CorpusError, match="duplicate pid 'a'"):
        Corpus([Passage("a", "A", "x"), Passage("a", "B", "y")])


def test_empty_text_is_a_clear_error():
    with pytest.raises(CorpusError, match="empty text"):
        Corpus([Passage("a", "A", "   ")])


def test_bad_lines_and_missing_files(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"pid": "a"}\n')
    with pytest.raises(CorpusError, match="bad.jsonl:1"):
        Corpus.from_file(bad)
    with pytest.raises(MissingArtifactError):
        Corpus.from_file(tmp_path / "none.jsonl")
    with pytest.raises(CorpusError, match="unsupported extension"):
        (tmp_path / "c.csv").write_text("x")
        Corpus.from_file(tmp_path / "c.csv")
