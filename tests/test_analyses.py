"""The analyses of run logs as CLI verbs, on small fixture logs: where answers are lost, what the answer steps
did, a pure step replayed, and one knob swept question by question."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import dspy

from hopkit.cli.main import main
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.paired import read_rows
from hopkit.evaluation.run_log import RunLog
from hopkit.evaluation.sweep import sweep
from hopkit.report.firings import firings
from hopkit.report.losses import losses, lost_at
from hopkit.report.replay import replay

LOGS = Path(__file__).parent / "fixtures" / "logs"
sys.path.insert(0, str(Path(__file__).parent))


def _rows(name):
    return list(read_rows(LOGS / f"{name}.jsonl").values())


def test_each_wrong_answer_is_put_at_the_step_that_lost_it():
    assert losses(_rows("ircot")) == {None: 1, "retrieval": 1, "reader": 2, "final step": 1, "error": 1}
    assert losses(_rows("tor")) == {"retrieval": 1, "review": 1, "reader": 1}
    assert losses(_rows("searchain")) == {"review": 1, "plan": 1}


def test_the_losses_verb_prints_a_row_per_log_and_lists_questions(capsys):
    assert main(["losses", str(LOGS / "ircot.jsonl"), str(LOGS / "tor.jsonl"), "--list"]) == 0
    out = capsys.readouterr().out
    assert "| logs/ircot | 6 | 1 | 1 | 1 | 1 | 0 | 0 | 2 |" in out
    assert "| logs/tor | 3 | 0 | 0 | 0 | 1 | 0 | 1 | 1 |" in out
    assert "logs/ircot i2  retrieval" in out


def test_the_wrong_questions_qids_make_a_file_that_picks_them_again(capsys, tmp_path):
    from hopkit.data.examples import pick_questions

    assert main(["losses", str(LOGS / "ircot.jsonl"), "--qids"]) == 0
    qids = capsys.readouterr().out.split()
    rows = _rows("ircot")
    assert qids == [row["qid"] for row in rows if lost_at(row)] and len(qids) == 5  # all but the one right answer
    listed = tmp_path / "wrong.txt"
    listed.write_text("# the wrong ones\n" + "\n".join(qids) + "\n\n")
    examples = [dspy.Example(qid=row["qid"]) for row in rows]
    assert [e.qid for e in pick_questions(examples, None, f"@{listed}")] == [r["qid"] for r in rows if r["qid"] in qids]
    assert [e.qid for e in pick_questions(examples, 2, f"@{listed}")] == qids[:2]


def test_a_qid_file_naming_a_question_the_dataset_lacks_is_refused(tmp_path):
    import pytest

    from hopkit.data.examples import pick_questions
    from hopkit.errors import InputError

    listed = tmp_path / "wrong.txt"
    listed.write_text("i1\nnot-there\n")
    examples = [dspy.Example(qid=qid) for qid in ("i1", "i2")]
    with pytest.raises(InputError, match="1 qid\\(s\\) the dataset does not have, e.g. 'not-there'"):
        pick_questions(examples, None, f"@{listed}")
    with pytest.raises(InputError, match="no file of qids there"):
        pick_questions(examples, None, f"@{tmp_path / 'none.txt'}")


def test_firings_count_what_each_answer_step_changed(capsys):
    counts = firings(_rows("ircot"))
    assert counts["yes_no_check"] == {"fired": 1, "changed": 1, "right_to_wrong": 1, "wrong_to_right": 0,
                                      "worse": 1, "better": 0}
    assert counts["option_check"]["fired"] == 0
    assert main(["firings", str(LOGS / "ircot.jsonl")]) == 0
    assert "| logs/ircot | 6 | yes_no_check | 1 | 1 | 1 | 0 | 1 | 0 |" in capsys.readouterr().out


def test_the_date_comparison_replayed_changes_only_what_the_stated_dates_decide(tmp_path, capsys):
    rows, counts = replay(_rows("ircot"), "date_comparison")
    assert counts["changed"] == 1 and counts["wrong_to_right"] == 1 and counts["right_to_wrong"] == 0
    fixed = next(r for r in rows if r["qid"] == "i5")
    assert fixed["prediction"]["answer"] == "Alba Rivers" and fixed["metrics"]["em"] == 1.0
    out = tmp_path / "replayed.jsonl"
    assert main(["replay", str(LOGS / "ircot.jsonl"), "--out", str(out)]) == 0
    assert len(read_rows(out)) == 6 and "hopkit compare" in capsys.readouterr().out
    assert main(["replay", str(LOGS / "ircot.jsonl"), "--step", "yes_no_check", "--out", str(out)]) == 2


def test_a_sweep_answers_each_question_with_every_value_before_the_next(tmp_path):
    order = []

    def program_for(value):
        def program(question):
            order.append((question, value))
            return dspy.Prediction(answer="A", citations=[], retrieved=[], trace={})
        return program

    examples = [dspy.Example(qid=f"q{i}", question=f"Q{i}?", answers=["A"], gold_pids=[]).with_inputs("question")
                for i in range(2)]
    logs = {v: RunLog(tmp_path / f"k{v}.jsonl", {"k": v}) for v in (5, 7)}
    sweep({v: program_for(v) for v in (5, 7)}, examples, [get_metric("em")], logs, progress=False)
    assert order == [("Q0?", 5), ("Q0?", 7), ("Q1?", 5), ("Q1?", 7)]
    sweep({v: program_for(v) for v in (5, 7)}, examples, [get_metric("em")], logs, progress=False)
    assert len(order) == 4  # a rerun skips the finished pairs
    assert [json.loads(line)["qid"] for line in (tmp_path / "k7.jsonl").read_text().splitlines()] == ["q0", "q1"]


def test_a_sweep_refuses_a_bad_value_before_loading(capsys):
    assert main(["sweep", "--method", "oner", "--knob", "k", "--values", "5,99", "--dataset", "bundled:dev",
                 "--out-dir", "/tmp/never"]) == 2
    assert "k=99 is outside its range" in capsys.readouterr().err


def test_a_gzipped_finished_log_reads_as_the_log(tmp_path):
    import gzip

    archived = tmp_path / "ircot.jsonl.gz"
    archived.write_bytes(gzip.compress((LOGS / "ircot.jsonl").read_bytes()))
    assert read_rows(archived) == read_rows(LOGS / "ircot.jsonl")
    assert main(["losses", str(archived)]) == 0


def test_a_sweep_builds_the_method_with_the_demonstrations_and_task_eval_would(monkeypatch, hopkit_home, tmp_path):
    """The sweep takes eval's flags: --demos-from shows the train split's chains in the prompt and is recorded."""
    from scripted_engine import FieldEchoEngine

    from hopkit.data.registry import load_dataset_spec
    from hopkit.lm.accounted import AccountedLM

    engine = FieldEchoEngine(answer="Morn")
    lm = AccountedLM("local/scripted", engine=engine, cache=False)
    monkeypatch.setattr("hopkit.cli.components.configure_lm", lambda args: dspy.configure(lm=lm))
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    assert main(["sweep", "--method", "ircot", "--knob", "k", "--values", "2,4", "--dataset", "bundled:dev", "--n",
                 "1", "--demos-from", "bundled:train", "--out-dir", str(tmp_path), "--quiet"]) == 0
    prompts = ["\n".join(getattr(part, "text", "") for message in request.messages for part in message.parts)
               for request in engine.requests]
    train = [example.question for example in load_dataset_spec("bundled:train").examples]
    assert prompts and all(any(question in prompt for question in train) for prompt in prompts[:1])
    metas = [json.loads(path.read_text()) for path in sorted(tmp_path.glob("*.meta.json"))]
    assert len(metas) == 2 and all(meta["demos_from"] == "bundled:train" for meta in metas)
