"""The two choice rules judged across studies: each rule's setting is fixed on dev, and the studies'
test questions are pooled and paired question by question."""

import json

import pytest

from hopkit.cli.main import main
from hopkit.errors import InputError
from hopkit.optimize.choice_rules import choice_rules_table, study_choices

# dev: the best leads trial 0 on 10 of 50 questions and trails on 2; one comparison clears zero, seven do not
DEV_PAPER = [0.0] * 10 + [1.0] * 2 + [0.5] * 38
DEV_BEST = [1.0] * 10 + [0.0] * 2 + [0.5] * 38


def _log(path, scores):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"qid": f"q{i}", "metrics": {"f1": s}, "prediction": {"answer": "x"}}) + "\n"
                            for i, s in enumerate(scores)))


def _study(root, name, settings, test_paper, test_best, metric="f1", best_trial=4):
    folder = root / name
    _log(folder / "settings" / "setting-a.jsonl", DEV_PAPER)
    _log(folder / "settings" / "setting-b.jsonl", DEV_BEST)
    _log(folder / "test" / "default-0.jsonl", test_paper)
    _log(folder / "test" / f"best-{best_trial}.jsonl", test_best)
    mean = lambda scores: sum(scores) / len(scores)  # noqa: E731
    summary = {"study": name, "metric": metric, "settings": settings, "default_trial": 0, "best_trial": best_trial,
               "trials": settings, "demos": "labeled", "dev_n": 50, "test_n": 50, "best_knobs": {"k": 8},
               "dev": {"default": mean(DEV_PAPER), "best": mean(DEV_BEST)},
               "test": {"default": mean(test_paper), "best": mean(test_best)},
               "lm_calls_per_question": {}, "cache_hit_rate": 0.0, "seconds_all_runs": 0.0,
               "logs": {"dev_default": "settings/setting-a.jsonl", "dev_best": "settings/setting-b.jsonl",
                        "test_default": "test/default-0.jsonl", "test_best": f"test/best-{best_trial}.jsonl"}}
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


def test_the_guarded_rule_keeps_the_paper_after_many_settings_and_the_best_after_one(tmp_path):
    many = _study(tmp_path, "many", 8, [0.5] * 50, [0.4] * 50)
    one = _study(tmp_path, "one", 2, [0.5] * 50, [0.7] * 50)
    from hopkit.optimize.summary import read_summary

    picked_from_eight, alone = study_choices(read_summary(many), many), study_choices(read_summary(one), one)
    assert not picked_from_eight.guarded_takes_best and picked_from_eight.guarded == picked_from_eight.paper
    assert alone.guarded_takes_best and alone.guarded == alone.best


def test_the_pooled_line_pairs_every_test_question_of_every_study(tmp_path):
    folders = [_study(tmp_path, "many", 8, [0.5] * 50, [0.4] * 50),  # guarded keeps the paper's: +0.1 on each
               _study(tmp_path, "one", 2, [0.5] * 50, [0.7] * 50)]  # guarded takes the best: same as best
    text = choice_rules_table(folders)
    assert "| many | 50 | 50.0 | 40.0 | 50.0 | the paper's |" in text
    assert "| one | 50 | 50.0 | 70.0 | 70.0 | the best |" in text
    pooled = text.splitlines()[-1]
    assert pooled.startswith("pooled over 100 test questions, paired: best - paper = +5.0 *")
    # 0 on 'many', +0.2 on 'one': resampled within each study, every draw holds 50 of each, so no spread
    assert "guarded - paper = +10.0 * [+10.0, +10.0]" in pooled
    assert "guarded - best = +5.0 *" in pooled  # +0.1 on 'many', 0 on 'one'


def test_a_study_that_chose_the_papers_setting_counts_as_one_setting_for_both_rules(tmp_path):
    same = tmp_path / "same"
    _log(same / "settings" / "setting-a.jsonl", DEV_PAPER)
    _log(same / "test" / "best-2.jsonl", [0.3] * 50)
    (same / "summary.json").write_text(json.dumps({
        "study": "same", "metric": "f1", "settings": 6, "default_trial": 2, "best_trial": 2,
        "logs": {"dev_default": "settings/setting-a.jsonl", "dev_best": "settings/setting-a.jsonl",
                 "test_default": "test/best-2.jsonl", "test_best": "test/best-2.jsonl"}}))
    text = choice_rules_table([same, _study(tmp_path, "many", 8, [0.5] * 50, [0.4] * 50)])
    assert "| same | 50 | 30.0 | 30.0 | 30.0 | both rules keep the paper's |" in text


def test_a_study_without_its_test_logs_is_named_and_left_out(tmp_path):
    kept = _study(tmp_path, "kept", 8, [0.5] * 50, [0.4] * 50)
    (kept / "test" / "best-4.jsonl").unlink()  # choose = guarded kept trial 0, so only it was scored on test
    text = choice_rules_table([kept, _study(tmp_path, "one", 2, [0.5] * 50, [0.7] * 50)])
    assert text.splitlines()[0].startswith("kept: left out, its test best log is not there")
    assert text.endswith("fewer than two studies scored on test, nothing to pool")


def test_studies_scored_with_different_metrics_are_refused(tmp_path):
    with pytest.raises(InputError, match="different metrics"):
        choice_rules_table([_study(tmp_path, "a", 8, [0.5] * 50, [0.4] * 50),
                            _study(tmp_path, "b", 8, [0.5] * 50, [0.4] * 50, metric="em")])


def test_report_on_two_study_folders_ends_with_the_choice_rules_across_them(tmp_path, capsys):
    folders = [_study(tmp_path, "many", 8, [0.5] * 50, [0.4] * 50), _study(tmp_path, "one", 2, [0.5] * 50, [0.7] * 50)]
    assert main(["report", *map(str, folders)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("pooled over 100 test questions, paired:")
    assert sum(line.startswith("guarded choice:") for line in out) == 2  # each study's own verdict is still printed
    assert main(["report", str(folders[0])]) == 0
    assert "choice rules" not in capsys.readouterr().out  # one study: nothing to pool
