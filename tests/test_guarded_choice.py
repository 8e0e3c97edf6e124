"""The guarded choice: trial 0 stays unless the best's dev lead survives the correction for how many
settings it was picked from; and the report reads a study's logs from wherever the folder now lies."""

import json

import pytest

from hopkit.optimize.guarded_choice import guarded_choice
from hopkit.optimize.summary import paired_lines

# 50 paired questions: the best wins 10, loses 2, ties 38, a lead of +0.16 whose 95% interval clears zero
DEFAULT = [0.0] * 10 + [1.0] * 2 + [0.5] * 38
BEST = [1.0] * 10 + [0.0] * 2 + [0.5] * 38


def test_a_lead_that_clears_one_comparison_does_not_clear_seven():
    alone = guarded_choice(DEFAULT, BEST, settings=2)
    picked_from_eight = guarded_choice(DEFAULT, BEST, settings=8)
    assert alone.comparisons == 1 and alone.takes_best and alone.low > 0
    assert picked_from_eight.comparisons == 7 and picked_from_eight.level == pytest.approx(1 - 0.05 / 7)
    assert not picked_from_eight.takes_best and picked_from_eight.low < 0 < picked_from_eight.high
    assert picked_from_eight.diff == pytest.approx(0.16)


def test_a_lead_on_every_question_is_taken_however_many_settings_were_tried():
    assert guarded_choice([0.2] * 50, [0.7] * 50, settings=40).takes_best


def test_for_a_metric_where_lower_is_better_the_lead_is_the_drop():
    lower = guarded_choice([1.0] * 50, [0.0] * 50, settings=3, higher_is_better=False)
    assert lower.diff == pytest.approx(1.0) and lower.takes_best


def test_scores_on_different_questions_are_refused():
    with pytest.raises(ValueError, match="same, non-empty dev questions"):
        guarded_choice([0.1, 0.2], [0.3], settings=3)


def _log(path, scores):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"qid": f"q{i}", "metrics": {"f1": s}, "prediction": {"answer": "x"}}) + "\n"
                            for i, s in enumerate(scores)))


def test_a_study_folder_copied_elsewhere_still_gives_its_paired_lines_and_the_guarded_choice(tmp_path):
    folder = tmp_path / "ircot-musique-labeled"
    _log(folder / "settings" / "setting-a.jsonl", DEFAULT)
    _log(folder / "settings" / "setting-b.jsonl", BEST)
    _log(folder / "test" / "default-0.jsonl", [0.5] * 50)
    _log(folder / "test" / "best-4.jsonl", [0.4] * 50)
    elsewhere = "/machine/that/ran/it/ircot-musique-labeled"  # how summaries before relative paths named logs
    summary = {"metric": "f1", "settings": 8, "best_trial": 4, "default_trial": 0,
               "test": {"default": 0.5, "best": 0.4},
               "logs": {"dev_default": f"{elsewhere}/settings/setting-a.jsonl", "dev_best": "settings/setting-b.jsonl",
                        "test_default": f"{elsewhere}/test/default-0.jsonl", "test_best": "test/best-4.jsonl"}}
    lines = paired_lines(summary, folder)
    assert lines[0].startswith("dev: chosen (trial 4) - trial 0, paired over 50 questions: 58.0 - 42.0 = +16.0")
    assert lines[1].startswith("test: chosen (trial 4) - trial 0, paired over 50 questions: 40.0 - 50.0 = -10.0")
    assert lines[2].startswith("guarded choice: dev interval corrected for 7 settings against trial 0 (99.3%): +16.0")
    assert lines[2].endswith("it keeps trial 0, test 50.0")
    retried = {**summary, "default_trial": 1}  # trial 0 killed at a session's end and rerun with its knobs
    assert [line.split(", paired")[0].split(": ")[-1] for line in paired_lines(retried, folder)[:2]] == [
        "chosen (trial 4) - trial 1"] * 2
    assert paired_lines(retried, folder)[2].endswith("it keeps trial 1, test 50.0")
    (folder / "test" / "best-4.jsonl").unlink()
    assert "the log" in paired_lines(summary, folder)[1] and "is not there" in paired_lines(summary, folder)[1]


def test_a_study_that_chose_the_papers_setting_says_so_instead_of_pairing_it_with_itself(tmp_path):
    folder = tmp_path / "searchain-musique-labeled"
    _log(folder / "settings" / "setting-a.jsonl", DEFAULT)
    _log(folder / "test" / "best-2.jsonl", [0.4] * 50)
    summary = {"metric": "f1", "settings": 6, "best_trial": 2, "default_trial": 2,
               "test": {"default": 0.4, "best": 0.4},
               "logs": {"dev_default": "settings/setting-a.jsonl", "dev_best": "settings/setting-a.jsonl",
                        "test_default": "test/best-2.jsonl", "test_best": "test/best-2.jsonl"}}
    assert paired_lines(summary, folder) == [
        "the study chose the paper's setting (trial 2): chosen and paper's are one setting, so there is no pair to "
        "compare"]


class KnobTellingEngine:
    """OneR's paper setting (k = 8: the prompt shows passages 'text 0' to 'text 7') answers only question 3
    right; every other k answers questions 0 and 1 right: a dev lead of +0.25 on 4 questions, mostly noise."""

    def __new__(cls):
        import re

        from scripted_engine import ScriptedEngine

        class Engine(ScriptedEngine):
            def complete(self, request):
                text = "\n".join(getattr(part, "text", "") for message in request.messages for part in message.parts)
                number = int(re.findall(r"Question (\d+)\?", text)[-1])
                paper = "text 7" in text and "text 8" not in text
                right = number == 3 if paper else number in (0, 1)
                truth = "Morn" if number % 2 else "Tull"
                self.replies = [{"answer": truth if right else "Nobody"}]
                return super().complete(request)

        return Engine([])


@pytest.mark.parametrize("rule", ["best", "guarded"])
def test_a_study_run_with_the_guarded_rule_keeps_trial_0_when_the_lead_is_noise(tmp_path, rule):
    from dataclasses import replace

    from optimize_worker import TableRetriever, configure, request, tiny_dataset

    from hopkit.optimize.runner import optimize
    from hopkit.optimize.summary import read_summary, summary_rows

    configure(engine=KnobTellingEngine())
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    result = optimize(replace(request(tmp_path, storage, trials=3, test=tiny_dataset("test", 4).examples),
                              choose=rule), TableRetriever(), None, say=lambda text: None)
    summary = read_summary(tmp_path)
    assert summary["dev"]["default"] == 0.25
    if rule == "best":
        assert summary["best_trial"] != 0 and summary["dev"]["best"] == 0.5 and summary["choice"] is None
        assert result.knobs["k"] != 8
        return
    assert summary["best_trial"] == 0 and result.knobs["k"] == 8 and result.best_value == 0.25
    choice = summary["choice"]
    assert choice["rule"] == "guarded" and choice["dev_best_trial"] != 0 and not choice["takes_best"]
    assert choice["comparisons"] == 2 and choice["diff"] == pytest.approx(0.25) and choice["low"] < 0
    assert sorted(p.name for p in (tmp_path / "test").glob("*.jsonl")) == ["best-0.jsonl"]  # only trial 0 scored
    assert f"the best on dev was trial {choice['dev_best_trial']}" in summary_rows(summary, tmp_path)


def test_an_unknown_choice_rule_is_refused_before_the_study_starts(tmp_path):
    from dataclasses import replace

    from optimize_worker import TableRetriever, request

    from hopkit.optimize.runner import optimize

    with pytest.raises(ValueError, match="unknown choice rule 'luckiest'; use best or guarded"):
        optimize(replace(request(tmp_path, "sqlite:///:memory:", trials=1), choose="luckiest"), TableRetriever(), None)
    assert not (tmp_path / "settings").exists()


def test_an_unknown_cost_objective_is_refused_before_the_demonstrations_or_the_study(tmp_path, monkeypatch):
    from dataclasses import replace

    from optimize_worker import TableRetriever, request

    from hopkit.optimize import runner

    def no_programs(*args, **kwargs):
        raise AssertionError("programs were built before the request was checked")

    monkeypatch.setattr(runner, "prepare_programs", no_programs)
    with pytest.raises(ValueError, match=r"unknown cost objective \['latency'\]; use "):
        runner.optimize(replace(request(tmp_path, "sqlite:///:memory:", trials=1), objectives=("metric", "latency")),
                        TableRetriever(), None)
    assert not (tmp_path / "settings").exists()
