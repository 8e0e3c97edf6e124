"""``--demos-from auto`` on a real dataset follows issue 39's measurement per method: MuSiQue's train
decompositions for IRCoT on MuSiQue, zero-shot elsewhere (IRCoT on HotpotQA and 2Wiki too: hopkit's own
Wikipedia demonstrations led on the first 20 questions and lost on the questions after them);
a measured default that cannot be loaded gives way to the next measured source, then zero-shot, and says so, while
a source the user named still fails loudly."""

from __future__ import annotations

import pytest

from hopkit.errors import MissingArtifactError
from hopkit.programs import demo_source
from hopkit.programs import demo_source as demos
from hopkit.programs.demo_source import resolve_demos_from


def test_auto_takes_the_train_split_only_where_it_was_measured_better():
    assert resolve_demos_from("auto", "musique:validation", "ircot") == "musique:train"
    assert resolve_demos_from("auto", "musique:validation", "searchain") is None
    assert resolve_demos_from("auto", "2wikimultihopqa:validation", "ircot") is None
    assert resolve_demos_from("auto", "2wikimultihopqa:validation", "searchain") is None
    assert resolve_demos_from("auto", "ircot:dev100", "ircot") is None  # HotpotQA in IRCoT's format
    assert resolve_demos_from("auto", "hotpotqa-distractor:validation", "ircot") is None
    assert resolve_demos_from("hopkit:wiki", "ircot:dev100", "ircot") == "hopkit:wiki"  # still one flag away
    assert resolve_demos_from("auto", "ircot:dev100", "tor") is None
    assert resolve_demos_from("auto", "musique:validation") is None  # no method: zero-shot as before
    assert resolve_demos_from("none", "musique:validation", "ircot") is None
    assert resolve_demos_from("auto", "bundled:dev", "ircot") == "bundled:train"


class _Named(str):
    """A stand-in dataset: its name, read from no stored copy."""

    stored_copy = None


def _unavailable(spec: str):
    raise MissingArtifactError(f"could not load {spec} from the Hugging Face hub (ConnectionError)")


def test_a_measured_default_that_cannot_be_loaded_runs_zero_shot_and_says_so(monkeypatch, capsys):
    monkeypatch.setattr("hopkit.data.registry.load_dataset_spec", _unavailable)
    train, recorded = demos.load_demonstrations("auto", "musique:validation", "ircot")
    assert train is None and recorded == "none (musique:train unavailable)"
    note = capsys.readouterr().err
    assert "musique:train" in note and "--demos-from none" in note and "zero-shot" in note


def test_a_source_the_user_named_fails_loudly(monkeypatch):
    monkeypatch.setattr("hopkit.data.registry.load_dataset_spec", _unavailable)
    with pytest.raises(MissingArtifactError, match="could not load musique:train"):
        demos.load_demonstrations("in-domain", "musique:validation", "ircot")
    with pytest.raises(MissingArtifactError):
        demos.load_demonstrations("musique:train", "musique:validation", "ircot")


def test_a_loaded_source_is_recorded_as_resolved(monkeypatch):
    monkeypatch.setattr("hopkit.data.registry.load_dataset_spec", lambda spec: _Named(f"dataset {spec}"))
    assert demos.load_demonstrations("auto", "musique:validation", "ircot") == (
        "dataset musique:train", "musique:train")
    assert demos.load_demonstrations("auto", "musique:validation", "tor") == (None, "none")


def test_an_unloadable_default_gives_way_to_the_next_measured_source(monkeypatch, capsys):
    monkeypatch.setitem(demo_source.MEASURED_DEFAULTS, ("ircot", "musique"), ("musique:train", "hopkit:wiki"))

    def hub_offline(spec: str):
        return _unavailable(spec) if spec == "musique:train" else _Named(f"dataset {spec}")

    monkeypatch.setattr("hopkit.data.registry.load_dataset_spec", hub_offline)
    assert demos.load_demonstrations("auto", "musique:validation", "ircot") == ("dataset hopkit:wiki",
                                                                                     "hopkit:wiki")
    assert "musique:train" in capsys.readouterr().err


def test_hopkits_own_demonstrations_load_offline_when_named():
    train, recorded = demos.load_demonstrations("hopkit:wiki", "hotpotqa-distractor:validation", "ircot")
    assert recorded == "hopkit:wiki" and len(train.examples) == 10
    assert demos.load_demonstrations("auto", "hotpotqa-distractor:validation", "ircot") == (None, "none")
