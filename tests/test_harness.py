import json

import dspy
import pytest

from hopkit.errors import InputError
from hopkit.evaluation.harness import evaluate, format_report
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.run_log import RunLog
from hopkit.programs.prediction import hop_prediction

METRICS = [get_metric("em"), get_metric("f1"), get_metric("recall@15")]


def _examples(n):
    return [dspy.Example(qid=f"q{i}", question=f"question {i}?", answers=[f"a{i}"], gold_pids=[f"p{i}"])
            .with_inputs("question") for i in range(n)]


class CountingProgram:
    """Answers correctly, counts calls, and can be told to die (KeyboardInterrupt) at one question."""

    def __init__(self, die_at=None, fail_at=None):
        self.calls, self.die_at, self.fail_at = [], die_at, fail_at

    def __call__(self, question):
        i = int(question.split()[1].rstrip("?"))
        self.calls.append(i)
        if i == self.die_at:
            raise KeyboardInterrupt
        if i == self.fail_at:
            raise ValueError("the LM wrote something unparsable")
        return hop_prediction(f"a{i}", citations=[f"p{i}"], retrieved=[f"p{i}"], trace={"step": i})


def test_a_killed_run_resumes_without_redoing_finished_questions(tmp_path):
    path = tmp_path / "run.jsonl"
    examples = _examples(6)
    first = CountingProgram(die_at=3)
    with pytest.raises(KeyboardInterrupt):
        evaluate(first, examples, METRICS, RunLog(path, {"m": 1}), progress=False)
    assert first.calls == [0, 1, 2, 3]  # nothing after the kill was started
    saved = [json.loads(line)["qid"] for line in path.read_text().splitlines()]
    assert saved == ["q0", "q1", "q2"]
    second = CountingProgram()
    report = evaluate(second, examples, METRICS, RunLog(path, {"m": 1}), progress=False)
    assert second.calls == [3, 4, 5]
    assert report.n == 6 and report.metrics["em"] == 1.0


def test_a_torn_last_line_is_dropped_and_redone(tmp_path):
    path = tmp_path / "run.jsonl"
    evaluate(CountingProgram(), _examples(2), METRICS, RunLog(path, {"m": 1}), progress=False)
    with path.open("a") as out:
        out.write('{"qid": "q2", "metr')
    program = CountingProgram()
    report = evaluate(program, _examples(3), METRICS, RunLog(path, {"m": 1}), progress=False)
    assert program.calls == [2] and report.n == 3


def test_a_failing_question_is_recorded_and_counted_not_raised(tmp_path):
    path = tmp_path / "run.jsonl"
    report = evaluate(CountingProgram(fail_at=1), _examples(3), METRICS, RunLog(path, {"m": 1}), progress=False,
                      threads=2)
    rows = {json.loads(line)["qid"]: json.loads(line) for line in path.read_text().splitlines()}
    assert rows["q1"]["error"]["type"] == "ValueError" and rows["q1"]["metrics"]["em"] == 0.0
    assert rows["q0"]["error"] is None and rows["q0"]["cost"]["seconds"] >= 0
    assert report.errors["ValueError"] == 1 and report.metrics["em"] == pytest.approx(2 / 3)
    assert "errors by kind: ValueError: 1" in format_report(report, "test")


def test_resume_refuses_a_run_with_other_settings(tmp_path):
    path = tmp_path / "run.jsonl"
    evaluate(CountingProgram(), _examples(1), METRICS, RunLog(path, {"method": "oner"}), progress=False)
    with pytest.raises(InputError, match="other settings \\(method\\)"):
        RunLog(path, {"method": "nor"})


def test_resume_ignores_labels_but_not_settings(tmp_path):
    path = tmp_path / "variant.jsonl"
    evaluate(CountingProgram(), _examples(1), METRICS, RunLog(path, {"knobs": {"k": 4}, "name": "K4", "table": "t"}),
             progress=False)
    assert RunLog(path, {"knobs": {"k": 4}, "name": "K4", "table": ""}).done_qids() == {"q0"}
    # what ``--retriever auto`` measured labels the run; the backend it chose is the setting
    assert RunLog(path, {"knobs": {"k": 4}, "retriever_choice": "bm25: recall not higher"}).done_qids() == {"q0"}
    with pytest.raises(InputError, match="knobs"):
        RunLog(path, {"knobs": {"k": 8}, "name": "K4", "table": "t"})


def test_two_processes_appending_to_one_run_log_lose_and_tear_nothing(tmp_path):
    """Two optimizer workers on the same setting: every 40 KB row lands whole and is read back."""
    import subprocess
    import sys

    from hopkit.evaluation.run_log import RunLog

    path = tmp_path / "shared.jsonl"
    writer = ("import sys; from pathlib import Path; from hopkit.evaluation.run_log import RunLog\n"
              "log = RunLog(Path(sys.argv[1]), {'run': 'shared'})\n"
              "for i in range(60): log.append({'qid': f'{sys.argv[2]}{i}', 'pad': 'x' * 40000})\n")
    workers = [subprocess.Popen([sys.executable, "-c", writer, str(path), name]) for name in ("a", "b")]
    assert [w.wait(timeout=120) for w in workers] == [0, 0]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 120
    assert len(RunLog(path, {"run": "shared"}).done_qids()) == 120


def test_a_question_answered_twice_in_one_log_counts_once(tmp_path):
    from hopkit.evaluation.run_log import RunLog

    log = RunLog(tmp_path / "twice.jsonl", {"run": 1})
    log.append({"qid": "q1", "metrics": {"f1": 1.0}})
    log.append({"qid": "q1", "metrics": {"f1": 0.0}})
    again = RunLog(tmp_path / "twice.jsonl", {"run": 1})
    assert [row["metrics"]["f1"] for row in again.rows] == [1.0]


def test_a_log_from_before_profiles_resumes_as_the_hopkit_profile(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text("")
    path.with_suffix(".meta.json").write_text(json.dumps({"method": "ircot"}))
    RunLog(path, {"method": "ircot", "profile": "hopkit"})  # accepted
    path.with_suffix(".meta.json").write_text(json.dumps({"method": "ircot"}))
    with pytest.raises(InputError, match="profile"):
        RunLog(path, {"method": "ircot", "profile": "paper"})
