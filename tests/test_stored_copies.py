"""A hub split's rows stored once (``hopkit data add``) stand in for the hub: a measured default that names a hub
split (IRCoT's ``musique:train`` on MuSiQue) then loads offline, and the run records where its rows came from."""

from __future__ import annotations

import json

import pytest
from test_loaders import _musique_row

from hopkit.cli.main import main
from hopkit.data.registry import load_dataset_spec
from hopkit.data.store_split import store_copy
from hopkit.data.stored_copies import stored_copy
from hopkit.errors import InputError
from hopkit.programs import demo_source as demos


@pytest.fixture
def own_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOPKIT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _train_rows(path):
    rows = [_musique_row("a", [("Who wrote Brand?", "Henrik Ibsen", "Brand", "Brand is a play by Henrik Ibsen."),
                               ("#1 >> place of birth", "Skien", "Ibsen", "Ibsen was born in Skien.")], "Skien"),
            _musique_row("b", [("Who made Atlas?", "Kellis", "Atlas", "Atlas was made by Kellis."),
                               ("Where was #1 born ?", "Morn", "Kellis", "Kellis was born in Morn.")], "Morn")]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_a_stored_copy_is_read_in_place_of_the_hub(own_home, tmp_path):
    assert stored_copy("musique", "train") is None
    path, examples = store_copy("musique", "train", _train_rows(tmp_path / "rows.jsonl"))
    assert examples == 2 and path.is_relative_to(own_home) and stored_copy("musique", "train") == path
    data = load_dataset_spec("musique:train")  # no file named and the hub unreachable in tests
    assert data.name == "musique:train" and [e.qid for e in data.examples] == ["a", "b"]
    assert data.examples[0].hop_queries == ["Who wrote Brand?", "place of birth of Henrik Ibsen?"]
    assert stored_copy("musique", "validation") is None and stored_copy("musique", "train[:10]") is None


def test_the_measured_default_loads_from_the_copy_and_records_it(own_home, tmp_path):
    path, _ = store_copy("musique", "train", _train_rows(tmp_path / "rows.jsonl"))
    train, recorded = demos.load_demonstrations("auto", "musique:validation", "ircot")
    assert len(train.examples) == 2 and recorded == f"musique:train (stored copy {path})"
    train, recorded = demos.load_demonstrations("musique:train@" + str(path), "musique:validation", "ircot")
    assert recorded == "musique:train@" + str(path)  # a file the user named is recorded as named


def test_rows_that_do_not_convert_are_refused_and_nothing_is_stored(own_home, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "question": "Q?"}) + "\n")
    with pytest.raises(InputError, match="layout"):
        store_copy("musique", "train", bad)
    assert stored_copy("musique", "train") is None
    with pytest.raises(InputError, match="not a hub dataset"):
        store_copy("bundled", "train", bad)
    with pytest.raises(InputError, match="split name"):
        store_copy("musique", "train/../x", bad)


def test_the_command_stores_and_says_where(own_home, tmp_path, capsys):
    main(["data", "add", "musique:train", "--from", str(_train_rows(tmp_path / "rows.jsonl"))])
    out = capsys.readouterr().out
    assert "2 examples stored" in out and str(stored_copy("musique", "train")) in out
    assert main(["data", "add", "musique:train@/x.jsonl"]) == 2 and "--from" in capsys.readouterr().err
