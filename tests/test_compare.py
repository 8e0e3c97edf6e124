"""`hopkit compare`: paired differences with bootstrap intervals over the questions two logs share."""

import json

import pytest

from hopkit.cli.main import main
from hopkit.errors import InputError
from hopkit.evaluation.paired import (
    compare_runs,
    format_comparison,
    paired_bootstrap,
    read_rows,
    stratified_paired_bootstrap,
)


def write_log(path, scores, answers=None):
    with path.open("w") as out:
        for i, (em, f1) in enumerate(scores):
            out.write(json.dumps({"qid": f"q{i}", "question": f"Question {i}?", "answers": [f"gold {i}"],
                                  "prediction": {"answer": (answers or {}).get(i, f"answer {i}")},
                                  "metrics": {"em": em, "f1": f1}}) + "\n")
    return path


def test_identical_runs_differ_by_exactly_zero():
    diff, low, high = paired_bootstrap([1, 0, 1, 0], [1, 0, 1, 0])
    assert (diff, low, high) == (0.0, 0.0, 0.0)


def test_a_run_better_on_every_question_has_an_interval_above_zero():
    diff, low, high = paired_bootstrap([0.0] * 20, [0.5] * 10 + [1.0] * 10)
    assert diff == pytest.approx(0.75) and 0.5 <= low <= diff <= high <= 1.0


def test_a_stratified_bootstrap_keeps_each_groups_size_so_constant_groups_give_no_spread():
    # two groups of fixed size, each with one constant difference: pooled, only how many each gives could vary
    groups = [([0.0] * 50, [0.0] * 50), ([0.0] * 50, [0.2] * 50)]
    assert stratified_paired_bootstrap(groups) == pytest.approx((0.1, 0.1, 0.1))
    pooled_a, pooled_b = [a for g in groups for a in g[0]], [b for g in groups for b in g[1]]
    diff, low, high = paired_bootstrap(pooled_a, pooled_b)  # resampling the pool mixes the groups' shares
    assert diff == pytest.approx(0.1) and low < 0.095 and high > 0.105


def test_a_stratified_bootstrap_weighs_each_question_once_and_refuses_an_empty_pool():
    diff, low, high = stratified_paired_bootstrap([([0.0] * 10, [1.0] * 10), ([1.0] * 30, [1.0] * 30)])
    assert diff == pytest.approx(0.25) and low == high == pytest.approx(0.25)
    with pytest.raises(InputError, match="share no question"):
        stratified_paired_bootstrap([([], [])])


def test_pairing_uses_shared_questions_and_lists_disagreements(tmp_path):
    a = read_rows(write_log(tmp_path / "a.jsonl", [(1, 1.0), (0, 0.0), (0, 0.5), (1, 1.0)]))
    b = read_rows(write_log(tmp_path / "b.jsonl", [(1, 1.0), (1, 1.0), (0, 0.5)]))
    result = compare_runs(a, b, samples=2000)
    assert result.n == 3 and result.only_a == 1 and result.only_b == 0
    em = next(d for d in result.differences if d.metric == "em")
    assert em.mean_a == pytest.approx(1 / 3) and em.mean_b == pytest.approx(2 / 3) and em.diff == pytest.approx(1 / 3)
    assert [row["qid"] for row in result.disagreements] == ["q1"]


def test_the_disagreements_are_listed_up_to_show_and_counted_alone_at_show_0(tmp_path):
    a = read_rows(write_log(tmp_path / "a.jsonl", [(0, 0.0)] * 3))
    b = read_rows(write_log(tmp_path / "b.jsonl", [(1, 1.0)] * 3))
    result = compare_runs(a, b, samples=200)
    listed = format_comparison(result, "a", "b", show=1)
    assert listed.count("\n- q") == 1 and "... and 2 more (--show N)" in listed
    counted = format_comparison(result, "a", "b", show=0)
    assert "3 questions where the runs disagree" in counted and "\n- q" not in counted and "more" not in counted


def test_cli_prints_the_table_and_rejects_unrelated_logs(tmp_path, capsys):
    a = write_log(tmp_path / "a.jsonl", [(0, 0.0)] * 10)
    b = write_log(tmp_path / "b.jsonl", [(1, 1.0)] * 10)
    assert main(["compare", str(a), str(b), "--samples", "500"]) == 0
    out = capsys.readouterr().out
    assert "| em | 0.0 | 100.0 | +100.0 * |" in out and "10 questions where the runs disagree" in out
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"qid": "x", "metrics": {"em": 1}}) + "\n")
    assert main(["compare", str(a), str(other)]) == 2
    assert "share no question" in capsys.readouterr().err
    with pytest.raises(InputError, match="not a run log"):
        read_rows(write_bad(tmp_path / "bad.jsonl"))


def write_bad(path):
    path.write_text(json.dumps({"question": "no qid"}) + "\n")
    return path


def test_the_form_split_groups_shared_questions_by_answer_form(tmp_path):
    from hopkit.evaluation.paired import split_by_form

    a = read_rows(write_log(tmp_path / "a.jsonl", [(1, 1.0), (0, 0.0), (0, 0.5)]))
    b = read_rows(write_log(tmp_path / "b.jsonl", [(1, 1.0), (1, 1.0), (0, 0.5)]))
    for row, question in zip(a.values(), ["Is X taller than Y?", "Which is older, X or Y?", "Who wrote X?"]):
        row["question"] = question
    groups = split_by_form(a, b)
    assert {form: sorted(pair[0]) for form, pair in groups.items()} == {
        "yes/no": ["q0"], "either-or": ["q1"], "open": ["q2"]}
    assert all(sorted(pair[0]) == sorted(pair[1]) for pair in groups.values())


def test_compare_prints_the_form_split_when_asked(tmp_path, capsys):
    a = write_log(tmp_path / "a.jsonl", [(1, 1.0), (0, 0.0)])
    b = write_log(tmp_path / "b.jsonl", [(1, 1.0), (1, 1.0)])
    main(["compare", str(a), str(b), "--by-form", "--samples", "200"])
    out = capsys.readouterr().out
    assert "f1 by question form:" in out and "| open | 2 | 50.0 | 100.0 | +50.0 |" in out


def test_a_task_metric_other_than_f1_says_which_run_did_better(tmp_path):
    def rouge_log(path, scores):
        path.write_text("".join(json.dumps({"qid": f"q{i}", "question": f"Explain {i}.", "answers": ["long"],
                                            "prediction": {"answer": "x"}, "metrics": {"rouge_l": s}}) + "\n"
                                for i, s in enumerate(scores)))
        return read_rows(path)

    a = rouge_log(tmp_path / "a.jsonl", [0.3, 0.5, 0.2])
    b = rouge_log(tmp_path / "b.jsonl", [0.4, 0.6, 0.1])
    text = format_comparison(compare_runs(a, b, samples=500), "a", "b")
    assert "(B better on 2, A better on 1 by rouge_l)" in text


def test_an_unknown_metric_is_named_as_unknown(tmp_path, capsys):
    a = write_log(tmp_path / "a.jsonl", [(0, 0.0)] * 3)
    assert main(["compare", str(a), str(a), "--metrics", "f2"]) == 2
    err = capsys.readouterr().err.strip()
    assert "f2" in err and "unknown metric" in err.lower() and "f1" in err and len(err.splitlines()) == 1


def test_help_shows_the_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = capsys.readouterr().out
    assert "(default: 10000)" in out and "(default: 50)" in out


def test_the_form_split_marks_an_interval_that_excludes_zero(tmp_path, capsys):
    a = write_log(tmp_path / "a.jsonl", [(0, 0.0)] * 12)
    b = write_log(tmp_path / "b.jsonl", [(1, 1.0)] * 12)
    assert main(["compare", str(a), str(b), "--by-form", "--samples", "500"]) == 0
    assert "| open | 12 | 0.0 | 100.0 | +100.0 * |" in capsys.readouterr().out


def _ircot_dataset(path, qids):
    rows = [{"question_id": qid, "question_text": f"Question {qid}?", "answers_objects": [{"spans": ["x"]}],
             "contexts": [{"title": f"T {qid}", "paragraph_text": f"About {qid}.", "is_supporting": True}]}
            for qid in qids]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return f"ircot:{path}"


def test_questions_of_a_dataset_limit_the_pairing_to_that_range(tmp_path, capsys):
    # questions 1-2 agree; 3-4 (say, the questions a choice made on 1-2 never saw) differ
    a = write_log(tmp_path / "a.jsonl", [(1, 1.0), (1, 1.0), (0, 0.0), (0, 0.0)])
    b = write_log(tmp_path / "b.jsonl", [(1, 1.0), (1, 1.0), (1, 1.0), (1, 1.0)])
    spec = _ircot_dataset(tmp_path / "dev.jsonl", ["q0", "q1", "q2", "q3"])
    assert main(["compare", str(a), str(b), "--dataset", spec, "--questions", "3-4", "--samples", "200"]) == 0
    out = capsys.readouterr().out
    assert "2 shared questions" in out and "| f1 | 0.0 | 100.0 | +100.0 * |" in out
    assert main(["compare", str(a), str(b), "--dataset", spec, "--n", "2", "--samples", "200"]) == 0
    assert "| f1 | 100.0 | 100.0 | +0.0 |" in capsys.readouterr().out


def test_a_question_range_without_its_dataset_is_refused(tmp_path, capsys):
    a = write_log(tmp_path / "a.jsonl", [(1, 1.0)] * 3)
    assert main(["compare", str(a), str(a), "--questions", "2-3"]) == 2
    assert "name it with --dataset" in capsys.readouterr().err


def test_python_compares_two_logs_or_two_reports_as_the_cli_does(tmp_path):
    import hopkit
    from hopkit.evaluation.harness import EvalReport

    a = write_log(tmp_path / "a.jsonl", [(0, 0.0), (0, 0.5), (1, 1.0)])
    b = write_log(tmp_path / "b.jsonl", [(1, 1.0), (0, 0.5), (1, 1.0)], answers={1: "answer 1 again"})
    by_path = hopkit.compare(a, str(b), metrics=["f1"], samples=500)
    (f1,) = by_path.differences
    assert by_path.n == 3 and (f1.metric, round(f1.mean_a, 3), round(f1.mean_b, 3)) == ("f1", 0.5, 0.833)
    assert f1 == compare_runs(read_rows(a), read_rows(b), ["f1"], 500).differences[0]
    assert by_path.settings == ["A and B have no .meta.json: what else differs is unknown"]
    reports = [EvalReport(3, {}, {}, path=path) for path in (a, b)]
    assert hopkit.compare(*reports, metrics=["f1"], samples=500).differences == [f1]
    with pytest.raises(InputError, match="no run log to compare"):
        hopkit.compare(EvalReport(3, {}, {}), b)
