"""``hopkit compare`` says what differs between the two logs' settings, so a paired difference says what it
measures."""

import json

from hopkit.cli.main import main
from hopkit.report.setting_diff import differences_line, setting_differences


def _log(path, meta=None, scores=(1.0, 0.0)):
    path.write_text("".join(json.dumps({"qid": f"q{i}", "question": f"Q{i}?", "answers": ["x"],
                                        "prediction": {"answer": "x"}, "metrics": {"f1": s}}) + "\n"
                            for i, s in enumerate(scores)))
    if meta is not None:
        path.with_suffix(".meta.json").write_text(json.dumps(meta))
    return path


def test_the_settings_that_differ_are_named_a_to_b(tmp_path):
    a = _log(tmp_path / "a.jsonl", {"method": "oner", "knobs": {"k": 13}, "retriever": "bm25", "n": 20,
                                    "spec": {"method": "oner", "threads": 1}})
    b = _log(tmp_path / "b.jsonl", {"method": "ircot", "knobs": {"answer_reader": "direct"}, "retriever": "bm25",
                                    "n": 92, "demos_from": "none", "spec": {"method": "ircot", "threads": 2}})
    assert setting_differences(a, b) == [
        "knobs.answer_reader: the profile's -> direct",  # a knob left out is at its profile's value
        "knobs.k: 13 -> the profile's",
        "method: oner -> ircot",  # once, not again for the spec's copy; n and threads are how it ran, not settings
        "A does not record demos_from",
    ]
    assert differences_line(a, a) == "settings: A and B record the same settings (.meta.json)"


def test_a_log_without_settings_says_what_is_unknown(tmp_path):
    a = _log(tmp_path / "a.jsonl", {"method": "oner"})
    b = _log(tmp_path / "b.jsonl")
    assert differences_line(a, b) == "settings: B has no .meta.json: what else differs is unknown"


def test_compare_prints_the_line_under_its_header(tmp_path, capsys):
    a = _log(tmp_path / "a.jsonl", {"method": "oner", "retriever": "bm25"})
    b = _log(tmp_path / "b.jsonl", {"method": "oner", "retriever": "colbert"}, scores=(1.0, 1.0))
    assert main(["compare", str(a), str(b), "--samples", "200"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[3] == "settings that differ, A -> B (1): retriever: bm25 -> colbert"
