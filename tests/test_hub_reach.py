"""Offline, a hub split is asked in offline mode at once (a copy in the ``datasets`` cache still loads; a missing one
fails without the hub's retries), and the note of a default that could not be loaded gives its advice once."""

from __future__ import annotations

import pytest

from hopkit.data import hub_reach
from hopkit.data.registry import load_dataset_spec
from hopkit.errors import HubUnavailableError
from hopkit.programs import demo_source

MUSIQUE_ROW = {"id": "m1", "question": "Who wrote X?", "answer": "Ann", "answer_aliases": [], "answerable": True,
               "paragraphs": [{"idx": 0, "title": "X", "paragraph_text": "X was written by Ann.",
                               "is_supporting": True}]}


@pytest.fixture
def hub_down(monkeypatch):
    monkeypatch.setattr(hub_reach, "hub_unreachable", lambda: "huggingface.co does not resolve")


def test_offline_the_datasets_cache_answers_in_offline_mode(monkeypatch, hub_down):
    import datasets
    from datasets import config

    modes = []

    def cached(*args, **kwargs):
        modes.append(config.HF_HUB_OFFLINE)
        return [MUSIQUE_ROW]

    before = config.HF_HUB_OFFLINE
    monkeypatch.setattr(datasets, "load_dataset", cached)
    data = load_dataset_spec("musique:validation")
    assert modes == [True] and config.HF_HUB_OFFLINE == before
    assert [e.qid for e in data.examples] == ["m1"]


def test_offline_a_split_not_cached_fails_with_the_reason(monkeypatch, hub_down):
    import datasets

    def not_cached(*args, **kwargs):
        raise ConnectionError("Couldn't reach the Hugging Face Hub")

    monkeypatch.setattr(datasets, "load_dataset", not_cached)
    with pytest.raises(HubUnavailableError, match=r"\(huggingface.co does not resolve\); offline, pass rows") as caught:
        load_dataset_spec("musique:train")
    assert caught.value.reason == "huggingface.co does not resolve"


def test_the_note_of_an_unreachable_default_gives_its_advice_once(monkeypatch, capsys):
    def unreachable(spec):
        raise HubUnavailableError(f"could not load {spec} (no network); offline, pass rows you have as ...",
                                  "no network")

    monkeypatch.setattr("hopkit.data.registry.load_dataset_spec", unreachable)
    train, recorded = demo_source.load_demonstrations("auto", "musique:validation", "ircot")
    note = capsys.readouterr().err
    assert train is None and recorded == "none (musique:train unavailable)"
    assert "could not be loaded (no network). Pass --demos-from musique:train@" in note
    assert "offline, pass rows" not in note


def test_offline_mode_in_the_environment_is_unreachable_without_a_lookup(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hub_reach, "_resolves", lambda host: pytest.fail("looked up"))
    hub_reach.hub_unreachable.cache_clear()
    try:
        assert "HF_HUB_OFFLINE" in hub_reach.hub_unreachable()
    finally:
        hub_reach.hub_unreachable.cache_clear()


def test_a_host_that_does_not_resolve_is_unreachable(monkeypatch):
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    resolves = hub_reach._resolves
    assert not resolves("name.invalid")  # RFC 2606: never resolves, online or not
    monkeypatch.setattr(hub_reach, "_resolves", lambda host: False)
    hub_reach.hub_unreachable.cache_clear()
    try:
        assert hub_reach.hub_unreachable().endswith("does not resolve: no network")
    finally:
        hub_reach.hub_unreachable.cache_clear()


def test_storing_a_split_offline_fails_with_the_reason(monkeypatch, hub_down, tmp_path):
    import datasets

    from hopkit.data.store_split import store_copy
    from hopkit.errors import MissingArtifactError

    def not_cached(*args, **kwargs):
        raise ConnectionError("Couldn't reach the Hugging Face Hub")

    monkeypatch.setenv("HOPKIT_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(datasets, "load_dataset", not_cached)
    with pytest.raises(MissingArtifactError, match=r"\(huggingface.co does not resolve\); offline, store rows"):
        store_copy("musique", "train")
