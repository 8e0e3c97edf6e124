"""scripts/replay_yes_no_check.py: the current yes/no check asked again on the calls a run log recorded, and a
replayed tree rewritten with its decisions and rescored."""

from __future__ import annotations

import json
from pathlib import Path

import dspy
from dspy.utils import DummyLM

from script_loader import load_script


def _row(qid: str, question: str, gold: str, answer: str, record: dict | None, content: str) -> dict:
    return {"qid": qid, "question": question, "answers": [gold], "gold_pids": [], "error": None,
            "prediction": {"answer": answer, "retrieved": []},
            "trace": {"method": "searchain", "final_content": content, "yes_no_check": record},
            "metrics": {"em": float(answer == gold), "f1": float(answer == gold)}}


def test_logged_calls_are_collected_once_with_their_gold_verdict(tmp_path: Path):
    replay = load_script("replay_yes_no_check")
    called = {"before": "749 feet", "after": "no", "call": True}
    row = _row("q1", "Is A taller than B?", "yes", "no", called, "A is 749 feet, B 628 feet.")
    no_reasoning = _row("q2", "Is C taller than D?", "no", "no", called, "")
    log = tmp_path / "2wiki" / "searchain.jsonl"
    log.parent.mkdir()
    log.write_text("".join(json.dumps(r) + "\n" for r in (row, row, no_reasoning)))
    calls, without = replay.logged_calls([log])
    assert without == 1 and len(calls) == 1
    found = calls[("Is A taller than B?", "749 feet", "A is 749 feet, B 628 feet.")]
    assert found["dataset"] == "2wiki" and found["gold"] == "yes" and found["logged"] == "no"


def test_apply_rewrites_a_changed_decision_and_rescores_it(tmp_path: Path):
    replay = load_script("replay_yes_no_check")
    asked = _row("q1", "Is A taller than B?", "yes", "no", {"before": "749 feet", "after": "no", "call": True},
                 "A is 749 feet, B 628 feet.")
    untouched = _row("q2", "Who built A?", "Bo", "Bo", None, "Bo built A.")
    log = tmp_path / "hotpotqa" / "searchain.jsonl"
    log.parent.mkdir()
    log.write_text("".join(json.dumps(r) + "\n" for r in (asked, untouched)))
    dspy.configure(lm=DummyLM([{"reasoning": "749 is more than 628.", "answer": "yes"}]))
    replay.apply(tmp_path, replay.YesNoCheck(restatement=False))
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert rows[0]["prediction"]["answer"] == "yes" and rows[0]["metrics"]["em"] == 1.0
    assert rows[0]["trace"]["yes_no_check"]["after"] == "yes" and rows[0]["trace"]["yes_no_check"]["replayed"]
    assert rows[1] == untouched


def test_the_replay_lm_evaluates_every_prompt_whole_in_a_cache_of_its_own(monkeypatch, tmp_path: Path):
    replay = load_script("replay_yes_no_check")
    seen = {}
    monkeypatch.setattr(replay, "home", lambda: tmp_path)
    monkeypatch.setattr(replay.dspy, "configure_cache", lambda **kw: seen.update(cache=kw["disk_cache_dir"]))
    monkeypatch.setattr(replay, "make_lm", lambda spec: seen.update(model=spec.model, whole=spec.whole_prompts) or "lm")
    assert replay.whole_prompt_lm("local:qwen1.5b") == "lm"
    assert seen == {"cache": str(tmp_path / "dspy-cache-whole-prompts"), "model": "local:qwen1.5b", "whole": True}
