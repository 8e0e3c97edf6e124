"""The LM-call cap: a setting that costs more LM calls a question than the user allows is stopped after a short
probe and kept as a pruned trial; the paper's setting is answered in full whatever it costs."""

import json

import dspy
import pytest
from optimize_worker import configure, tiny_dataset

from hopkit.evaluation.metrics import get_metric
from hopkit.optimize.objective import OVER_CAP, Objective, capped_trials
from hopkit.optimize.search_space import search_space
from hopkit.optimize.study import open_study
from hopkit.optimize.summary import summary_rows


class CallsK(dspy.Module):
    """Asks the LM ``k`` times a question: a setting's cost set by its knob."""

    def __init__(self, k: int):
        super().__init__()
        self.k = k
        self.answer = dspy.Predict("question -> answer")

    def forward(self, question):
        for _ in range(self.k):
            answer = self.answer(question=question).answer
        return dspy.Prediction(answer=answer, citations=[], retrieved=[], trace={})


def _objective(tmp_path, cap, reference_k=6):
    space = {"k": search_space("oner")["k"]}
    return Objective(lambda knobs: CallsK(knobs["k"]), space, tiny_dataset("dev", 12).examples, get_metric("f1"),
                     tmp_path / "settings", slices=3, max_calls_per_question=cap, reference={"k": reference_k})


@pytest.fixture(autouse=True)
def _lm():
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)
    configure()
    yield
    dspy.configure_cache(enable_disk_cache=True, enable_memory_cache=True)


def test_a_setting_over_the_cap_stops_after_the_probe_and_the_papers_setting_never_does(tmp_path):
    study = open_study("cap", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"], pruner="none")
    for k in (6, 4, 2):  # 6: the paper's (over the cap, answered in full); 4: over it; 2: under it
        study.enqueue_trial({"k": k})
    study.optimize(_objective(tmp_path, cap=3.0), n_trials=3)
    states = [(t.params["k"], t.state.name, t.user_attrs["n"]) for t in study.trials]
    assert states == [(6, "COMPLETE", 12), (4, "PRUNED", 3), (2, "COMPLETE", 12)]
    assert study.trials[1].user_attrs[OVER_CAP] == 4.0 and not study.trials[1].intermediate_values
    assert capped_trials(study) == [{"number": 1, "params": {"k": 4}, "calls": 4.0}]


def test_without_a_cap_every_setting_answers_all_of_dev(tmp_path):
    study = open_study("nocap", f"sqlite:///{tmp_path / 'study.db'}", ["maximize"], pruner="none")
    study.enqueue_trial({"k": 4})
    study.optimize(_objective(tmp_path, cap=None), n_trials=1)
    assert study.trials[0].state.name == "COMPLETE" and study.trials[0].user_attrs["n"] == 12
    assert capped_trials(study) == []


def test_the_summary_and_report_name_the_trials_the_cap_stopped(tmp_path):
    from dataclasses import replace

    from optimize_worker import TableRetriever, request

    from hopkit.optimize.request import PruningSettings
    from hopkit.optimize.runner import optimize

    storage = f"sqlite:///{tmp_path / 'study.db'}"
    # OneR makes one call a question: under a cap of 1 nothing stops; a cap of 0.5 stops all but the paper's setting
    capped = replace(request(tmp_path, storage, trials=3), pruning=PruningSettings("none", max_calls_per_question=0.5))
    result = optimize(capped, TableRetriever(), None, say=lambda text: None)
    summary = json.loads(result.summary_path.read_text())
    assert summary["call_cap"]["max_calls_per_question"] == 0.5
    assert [t["number"] for t in summary["call_cap"]["stopped"]] == [1, 2] and summary["best_trial"] == 0
    assert "stopped over the cap of 0.5 LM calls a question: trial 1 at 1.0" in summary_rows(summary, tmp_path)
    from hopkit.optimize.setting_table import running_study_table, study_settings_table

    for table in (study_settings_table(summary, tmp_path), running_study_table(tmp_path)):  # summary, then storage
        labels = [line.split(" | ")[0] for line in table.splitlines() if line.startswith("| ") and "---" not in line]
        assert labels[1:] == ["| paper", "| over the call cap", "| over the call cap"]


def test_a_cap_of_zero_or_below_is_refused_before_any_work(tmp_path):
    from dataclasses import replace

    from optimize_worker import TableRetriever, request

    from hopkit.optimize.request import PruningSettings
    from hopkit.optimize.runner import optimize

    with pytest.raises(ValueError, match="must be above 0"):
        optimize(replace(request(tmp_path, "sqlite:///unused.db", trials=2),
                         pruning=PruningSettings(max_calls_per_question=0.0)),
                 TableRetriever(), None, say=lambda text: None)
    assert not (tmp_path / "settings").exists()


def test_optimize_refuses_a_cap_of_zero_before_the_study_opens(hopkit_home, tmp_path, capsys):
    from hopkit.cli.main import main

    folder = tmp_path / "study"
    rc = main(["optimize", "--method", "oner", "--demos", "none", "--dev", "bundled:dev[1-20]", "--trials", "1",
               "--max-calls-per-question", "0", "--out", str(folder)])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "(max_calls_per_question) must be above 0, got 0" in err and len(err.splitlines()) == 1
    assert not folder.exists()


def test_a_capped_setting_at_its_profile_value_is_found_by_its_logs_name(tmp_path):
    """A run spec's metadata drops a knob at its profile value, so the cap's trial params are matched to the log's
    name, not to the metadata's knobs."""
    from hopkit.optimize.objective import setting_log_name
    from hopkit.optimize.setting_table import setting_rows

    settings = tmp_path / "settings"
    settings.mkdir()
    for params, knobs in (({"k": 4}, {}), ({"k": 6}, {"k": 6})):
        log = settings / setting_log_name(params, "d0")
        log.with_name(log.name.removesuffix(".jsonl") + ".meta.json").write_text(
            json.dumps({"knobs": knobs, "demos": "d0"}))
        log.write_text(json.dumps({"qid": "q0", "metrics": {"f1": 1.0}, "cost": {"lm_calls": 3}}) + "\n")
    rows = setting_rows(tmp_path, None, "f1", capped=[{"k": 4}])
    assert {json.dumps(row.knobs): row.over_cap for row in rows} == {"{}": True, '{"k": 6}': False}
