"""The table of every setting a study tried: read from per-setting dev logs, each against the paper's setting on
the questions it answered."""

from __future__ import annotations

import json
from pathlib import Path

from hopkit.cli.main import main
from hopkit.optimize.setting_table import paper_knobs_of, setting_rows, settings_table

PAPER = {"k": 1, "theta": 0.5}


def write_setting(folder: Path, name: str, knobs: dict, answers: list[tuple[str, float]], calls: int = 2,
                  seconds: float = 10.0) -> Path:
    settings = folder / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / f"setting-{name}.meta.json").write_text(json.dumps({"demos": "d", "knobs": knobs, "metric": "f1"}))
    rows = [{"qid": f"q{i}", "question": f"question {i}", "answers": ["gold"], "error": None,
             "prediction": {"answer": answer}, "metrics": {"f1": f1},
             "cost": {"lm_calls": calls, "cache_hits": calls, "seconds": 0.1, "computed": {"seconds": seconds}}}
            for i, (answer, f1) in enumerate(answers)]
    log = settings / f"setting-{name}.jsonl"
    log.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return log


def study_folder(tmp_path: Path) -> Path:
    write_setting(tmp_path, "a-pruned", {"k": 3, "theta": 0.2}, [("gold", 1.0), ("Other", 0.0)], calls=4, seconds=30)
    write_setting(tmp_path, "b-paper", PAPER, [("gold", 1.0), ("wrong", 0.0), ("gold", 1.0), ("x", 0.0)])
    write_setting(tmp_path, "c-full", {"k": 2, "theta": 0.7}, [("GOLD", 1.0), ("wrong ", 0.0), ("y", 0.0), ("x", 0.0)])
    return tmp_path


def test_each_setting_is_scored_against_the_papers_setting_on_the_questions_it_answered(tmp_path):
    rows = setting_rows(study_folder(tmp_path), PAPER, "f1")
    assert [row.knobs for row in rows] == [PAPER, {"k": 2, "theta": 0.7}, {"k": 3, "theta": 0.2}]  # paper, furthest
    paper, full, pruned = rows
    assert paper.is_paper and (paper.questions, paper.metric, paper.differ) == (4, 0.5, 0)
    assert (full.questions, full.metric, full.paper_same, full.differ) == (4, 0.25, 0.5, 1)  # case and spaces alike
    assert (pruned.questions, pruned.metric, pruned.paper_same, pruned.differ) == (2, 0.5, 0.5, 1)
    assert (pruned.calls, pruned.seconds) == (4.0, 30.0)  # as computed, though every call was a cache hit


def test_the_table_has_a_column_a_knob_and_without_the_papers_log_leaves_its_columns_empty(tmp_path):
    text = settings_table(setting_rows(study_folder(tmp_path), {"k": 9, "theta": 0.9}, "f1"), "f1").splitlines()
    assert text[0].startswith("| setting | k | theta | questions | f1 | paper's, same questions |")
    assert text[2] == "| tried | 1 | 0.50 | 4 | 50.0 | - | - | 2.00 | 10 |"
    assert len(text) == 5 and all(line.count("|") == text[0].count("|") for line in text)


def test_report_on_a_study_folder_prints_every_setting_with_the_papers_knobs_from_its_dev_log(tmp_path, capsys):
    folder = study_folder(tmp_path / "study")
    summary = {"study": "s", "demos": "labeled", "trials": 3, "settings": 3, "default_trial": 0, "best_trial": 0,
               "best_knobs": PAPER, "metric": "f1", "dev_n": 4, "test_n": 0, "dev": {"default": 0.5, "best": 0.5},
               "test": {"default": None, "best": None}, "lm_calls_per_question": {}, "cache_hit_rate": 0.0,
               "seconds_all_runs": 1.0, "logs": {"dev_default": "settings/setting-b-paper.jsonl"}}
    (folder / "summary.json").write_text(json.dumps(summary))
    assert paper_knobs_of(summary, folder) == PAPER
    assert main(["report", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "every setting tried on dev" in out
    assert "| paper | 1 | 0.50 | 4 | 50.0 | 50.0 | 0 | 2.00 | 10 |" in out
    assert "| tried | 3 | 0.20 | 2 | 50.0 | 50.0 | 1 | 4.00 | 30 |" in out


def test_report_on_a_study_still_tuning_reads_the_papers_knobs_from_its_storage(tmp_path, capsys):
    import optuna

    folder = study_folder(tmp_path / "running")
    study = optuna.create_study(study_name="running", storage=f"sqlite:///{folder / 'study.db'}")
    study.enqueue_trial(PAPER, user_attrs={"paper_defaults": True})
    # trial 0 running, as when a queue was stopped mid-trial: no summary.json yet
    study.ask({"k": optuna.distributions.IntDistribution(1, 5),
               "theta": optuna.distributions.FloatDistribution(0.0, 1.0)})
    assert main(["report", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "no summary.json yet" in out and "| paper | 1 | 0.50 | 4 | 50.0 | 50.0 | 0 | 2.00 | 10 |" in out
    (folder / "study.db").unlink()  # another storage (PostgreSQL): the table stands without the paper's columns
    assert main(["report", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "no study.db here to name the paper's setting" in out and "| paper |" not in out


def test_report_on_a_study_still_tuning_shows_how_far_its_test_half_has_got(tmp_path, capsys):
    folder = study_folder(tmp_path / "scoring")
    assert main(["report", str(folder)]) == 0
    assert "test half so far" not in capsys.readouterr().out  # no test log yet
    test = folder / "test"
    test.mkdir()
    log = write_setting(folder, "chosen", {"k": 2, "theta": 0.7}, [("gold", 1.0), ("x", 0.0), ("gold", 0.5)], calls=6)
    log.rename(test / "best-4.jsonl")
    (test / "default-0.jsonl").write_text("")  # the paper's setting's log opened, nothing answered yet
    assert main(["report", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "test half so far" in out
    assert "the chosen setting (trial 4, test/best-4.jsonl): 3 questions so far, f1 50.0, 6.00 LM calls/q" in out
    assert "the paper's setting (trial" not in out  # an empty log is not shown


def test_report_refuses_a_folder_that_is_neither_a_study_nor_a_run_log(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "without an optimize study's summary.json or setting logs" in capsys.readouterr().err
