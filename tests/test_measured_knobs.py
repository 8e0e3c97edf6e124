"""Knob values measured on a dataset (hopkit/knobs/measured.py): taken by ``hopkit eval`` on that dataset in the
hopkit profile, said on stderr and recorded in the run log; a value the user sets and the paper profile win."""

from __future__ import annotations

import json

import pytest

from hopkit.knobs import measured
from hopkit.knobs.measured import dataset_family, measured_knobs


@pytest.fixture
def oner_on_musique(monkeypatch):
    monkeypatch.setitem(measured.MEASURED_KNOBS, ("oner", "musique"), {"k": 2})


def test_the_measured_values_fill_only_what_the_user_left_unset(oner_on_musique):
    assert measured_knobs("oner", "musique:validation", "hopkit", {}) == {"k": 2}
    assert measured_knobs("oner", "musique:validation@/data/dev100.jsonl", "hopkit", {}) == {"k": 2}
    assert measured_knobs("oner", "musique:validation", "hopkit", {"k": 5}) == {}
    assert measured_knobs("oner", "musique:validation", "paper", {}) == {}
    assert measured_knobs("oner-cot", "musique:validation", "hopkit", {}) == {}  # measured for one method
    assert measured_knobs("oner", "2wikimultihopqa:validation", "hopkit", {}) == {}
    assert measured_knobs("oner", None, "hopkit", {}) == {}
    assert dataset_family("ircot:/d/dev100.jsonl") == "ircot"


def test_every_measured_value_is_a_declared_knob_within_its_range():
    from hopkit.programs.registry import check_knobs

    for (method, _), values in measured.MEASURED_KNOBS.items():
        assert check_knobs(method, values) == values


def _musique_file(path):
    paragraphs = [{"idx": 0, "title": "Brand", "paragraph_text": "Brand is a play by Henrik Ibsen.",
                   "is_supporting": True},
                  {"idx": 1, "title": "Henrik Ibsen", "paragraph_text": "Henrik Ibsen was born in Skien.",
                   "is_supporting": True}]
    paragraphs += [{"idx": 2 + i, "title": f"Other {i}", "paragraph_text": f"Brand {i} is a soap sold in town {i}.",
                    "is_supporting": False} for i in range(4)]
    row = {"id": "m1", "question": "Where was the author of Brand born?", "answer": "Skien", "answer_aliases": [],
           "answerable": True, "paragraphs": paragraphs,
           "question_decomposition": [{"id": 0, "question": "Who wrote Brand?", "answer": "Henrik Ibsen",
                                       "paragraph_support_idx": 0},
                                      {"id": 1, "question": "Where was Henrik Ibsen born?", "answer": "Skien",
                                       "paragraph_support_idx": 1}]}
    path.write_text(json.dumps(row) + "\n")
    return path


def _eval(tmp_path, name: str, *extra: str) -> tuple[dict, dict]:
    from hopkit.cli.main import main
    from lm_servers import scripted_lm_server

    spec = f"musique:validation@{_musique_file(tmp_path / 'dev.jsonl')}"
    assert main(["index", "--backend", "bm25", "--dataset", spec]) == 0
    server = scripted_lm_server(answer="Skien")
    out = tmp_path / f"{name}.jsonl"
    try:
        code = main(["eval", "--method", "oner", "--dataset", spec, "--retriever", "bm25", "--lm", "openai/scripted",
                     "--api-base", f"http://127.0.0.1:{server.server_address[1]}/v1", "--no-cache", "--quiet",
                     "--out", str(out), *extra])
    finally:
        server.shutdown()
    assert code == 0
    row = json.loads(out.read_text().splitlines()[0])
    return row, json.loads(out.with_suffix(".meta.json").read_text())


def test_hopkit_eval_takes_the_measured_value_says_so_and_records_it(tmp_path, hopkit_home, oner_on_musique,
                                                                     capsys):
    row, meta = _eval(tmp_path, "measured")
    assert meta["measured_knobs"] == {"k": 2} and meta["knobs"] == {}
    assert len(row["prediction"]["retrieved"]) == 2
    assert "oner on musique:validation takes k=2" in capsys.readouterr().err


def test_the_users_value_and_the_paper_profile_win(tmp_path, hopkit_home, oner_on_musique):
    row, meta = _eval(tmp_path, "set", "--set", "k=3")
    assert "measured_knobs" not in meta and len(row["prediction"]["retrieved"]) == 3
    row, meta = _eval(tmp_path, "paper", "--profile", "paper")
    assert "measured_knobs" not in meta and len(row["prediction"]["retrieved"]) > 2


def test_the_knobs_verb_shows_the_value_measured_on_a_dataset(oner_on_musique, capsys):
    from hopkit.cli.main import main

    assert main(["knobs", "oner", "--dataset", "musique:validation"]) == 0
    assert "k = 2 (tuned on musique:validation's dev questions" in capsys.readouterr().out
    assert main(["knobs", "oner", "--dataset", "musique:validation", "--set", "k=5"]) == 0
    shown = capsys.readouterr().out
    assert "k = 5" in shown and "tuned on" not in shown
