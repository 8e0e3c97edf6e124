"""The HTML run report: everything from data is escaped, traces are drawn per method, two runs side by side."""

import json

import pytest

from hopkit.cli.main import main
from hopkit.report.page import build_page, script_hash

EVIL = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2">'


def searchain_row(qid="q1", em=1.0, question="Where was the maker of Atlas born?"):
    nodes = [{"id": "r1.1", "parent": "root", "query": "Who made Atlas?", "lm_answer": "Brann " + EVIL,
              "unsolved": False, "action": "verified-corrected", "reader_answer": "Kellis", "confidence": 0.93,
              "pid": "p1", "duplicate_of": None},
             {"id": "r2.1", "parent": "r1.1", "query": "Where was Kellis born?", "lm_answer": "", "unsolved": True,
              "action": "completed", "reader_answer": "Morn", "confidence": 0.4, "pid": "p2", "duplicate_of": None}]
    return {"qid": qid, "question": question, "answers": ["Morn"], "gold_pids": ["p1", "p2"], "error": None,
            "prediction": {"answer": "Morn", "citations": ["p1", "p9"], "retrieved": ["p1", "p2"]},
            "trace": {"method": "searchain", "tree": {"nodes": nodes, "branches": [{}, {}]}, "path": ["r1.1", "r2.1"],
                      "final_content": "Kellis [1] was born in Morn [2]. " + EVIL, "answer_source": "chain"},
            "metrics": {"em": em, "f1": em, "cover_em": em, "recall@15": 1.0}, "cost": {"lm_calls": 3, "seconds": 2.0}}


def test_text_from_data_is_never_markup():
    page = build_page([("run " + EVIL, [searchain_row(question="Is <b>X</b> " + EVIL)])], title=EVIL)
    assert "<script>window.__pwned" not in page and "onerror=" not in page.replace("onerror=&quot;", "")
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in page
    assert page.count("<script>") == 1  # the page's own, allowed by hash in its Content-Security-Policy
    assert script_hash() in page


def test_searchain_tree_ircot_steps_and_tor_review_tree_are_drawn():
    page = build_page([("a", [searchain_row()])])
    assert 'data-action="corrected"' in page and 'data-action="completed"' in page and "f=0.93" in page
    assert '<span class="pid gold">p1</span>' in page and '<span class="pid">p9</span>' in page
    ircot = {**searchain_row("q2"), "trace": {"method": "ircot", "stop": "answer_is",
                                              "steps": [{"step": 0, "query": "Q", "added": ["p1"]}]}}
    tor = {**searchain_row("q3"), "trace": {"method": "tor", "nodes": [
        {"id": "n.1", "parent": "root", "pid": "p1", "action": "accept", "output": "Morn."},
        {"id": "n.2", "parent": "root", "pid": "p5", "action": None, "status": "pruned-repetitive"}],
        "evidence": [{"pids": ["p1"], "analysis": "Morn.", "node": "n.1"}]}}
    page = build_page([("a", [ircot, tor])])
    assert "IRCoT steps (stop: answer_is)" in page and "Review tree" in page and "Evidence pool" in page
    assert 'data-action="pruned-repetitive"' in page


def tor_row(qid="q1", em=1.0):
    row = searchain_row(qid, em)
    return {**row, "trace": {"method": "tor", "nodes": [
        {"id": "n.1", "parent": "root", "pid": "p1", "action": "accept", "output": "Morn."}],
        "evidence": [{"pids": ["p1"], "analysis": "Morn.", "node": "n.1"}]}}


def ircot_row(qid="q1", em=1.0):
    steps = [{"step": 0, "sentence": "", "query": "Where was the maker of Atlas born?", "added": ["p1"]},
             {"step": 1, "sentence": "Atlas was made by Kellis.", "query": "Atlas was made by Kellis.",
              "added": ["p2"]}]
    return {**searchain_row(qid, em), "trace": {"method": "ircot", "stop": "answer_is", "steps": steps}}


def _write(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def test_every_run_is_drawn_side_by_side_paired_against_the_first_with_links_to_both_traces(tmp_path, capsys):
    a = _write(tmp_path / "searchain.jsonl", [searchain_row("q1", 1.0), searchain_row("q2", 0.0)])
    b = _write(tmp_path / "tor.jsonl", [tor_row("q1", 1.0), tor_row("q2", 1.0)])
    c = _write(tmp_path / "ircot.jsonl", [ircot_row("q1", 0.0), ircot_row("q2", 0.0)])
    out = tmp_path / "report.html"
    assert main(["report", a, b, c, "--html", str(out)]) == 0
    page = out.read_text()
    # each question's row holds every run's trace, each drawn as its own method's
    for question in (0, 1):
        assert all(f'id="t-{question}-{run}"' in page for run in (0, 1, 2))
    assert page.count("Review tree") == 2 and page.count("IRCoT steps") == 2 and page.count("Tree-of-Reasoning") == 2
    # paired intervals of the second and third runs against the first, and both disagreements linked both ways
    assert "Paired difference against searchain" in page and page.count("<td>2</td>") >= 2
    assert "Where the runs disagree on em (2 questions)" in page
    assert 'href="#t-0-0"' in page and 'href="#t-0-2"' in page and 'href="#t-1-1"' in page


def test_logs_that_share_no_question_are_refused(tmp_path, capsys):
    a = _write(tmp_path / "a.jsonl", [searchain_row("q1")])
    b = _write(tmp_path / "b.jsonl", [searchain_row("q9")])
    assert main(["report", a, b, "--html", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert "share no question" in err and len(err.splitlines()) == 1 and not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("name, content, says", [
    ("notalog.txt", "just some notes\nnot json\n", "is not a run log: a run log is the JSONL"),
    ("x.meta.json", json.dumps({"method": "ircot"}, indent=2), "holds a run's settings, not its rows: pass x.jsonl"),
    ("empty.jsonl", "", "is not a run log"),
    ("rows.jsonl", json.dumps({"question": "no qid"}) + "\n", "has no qid and metrics"),
])
@pytest.mark.parametrize("html", [False, True])
def test_report_refuses_what_is_not_a_run_log(tmp_path, capsys, name, content, says, html):
    path = tmp_path / name
    path.write_text(content)
    out = tmp_path / "r.html"
    assert main(["report", str(path), *(["--html", str(out)] if html else [])]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1 and not out.exists()


def _task_row(qid, metrics, answer="SUPPORTS"):
    return {"qid": qid, "question": f"Claim {qid}.", "answers": ["SUPPORTS"], "gold_pids": [], "error": None,
            "prediction": {"answer": answer}, "trace": {"method": "oner"}, "metrics": metrics,
            "cost": {"lm_calls": 1}}


def test_a_tasks_metrics_drive_the_summary_the_filters_and_the_rows_marks(tmp_path):
    from hopkit.report.runs import load_run

    log = tmp_path / "fact-check.jsonl"
    _write(log, [_task_row("c1", {"label_acc": 1.0, "cover_em": 0.0}), _task_row("c2", {"label_acc": 0.0,
                                                                                         "cover_em": 0.0})])
    (tmp_path / "fact-check.meta.json").write_text(json.dumps({"task": "fact-check"}))
    run = load_run(log)
    assert run.task.name == "fact-check" and run.metrics == ["label_acc", "cover_em"]
    page = build_page([run])
    assert "<th>label_acc</th>" in page and "<th>em</th>" not in page
    assert 'data-qid="c1"' in page
    assert page.count('data-status="correct"') == 1 and page.count('data-status="wrong"') == 1
    long_form = [_task_row("l1", {"rouge_l": 0.42, "recall@15": 1.0}, "A long answer.")]
    page = build_page([("long", long_form)])  # no settings file: the metric says the task
    assert "<th>rouge_l</th>" in page and 'data-status="graded"' in page and "rouge_l 0.42" in page


def test_a_check_firing_and_the_citations_titles_are_drawn():
    row = searchain_row()
    row["trace"]["reader_output"] = {"answer_before_steps": "749 feet",
                                     "yes_no_check": {"before": "749 feet", "after": "no", "call": True}}
    page = build_page([("a", [row])], passages={"p1": ("Atlas (novel)", "Atlas is a novel by Kellis.")})
    assert 'data-step="yes_no_check"' in page and 'data-changed="true"' in page
    assert "749 feet" in page and "an LM call decided yes or no from the reasoning" in page
    assert 'title="p1">Atlas (novel)</summary><div class="para">Atlas is a novel by Kellis.</div>' in page


def test_ircot_columns_that_repeat_each_other_are_one():
    page = build_page([("a", [ircot_row()])])
    assert "<th>sentence (the query)</th>" in page and "<th>query</th>" not in page


def test_a_question_whose_lm_output_was_cut_at_max_tokens_says_so(tmp_path):
    cut = searchain_row("q1", 1.0)
    cut["cost"] = {**cut["cost"], "truncated": 2}
    a = _write(tmp_path / "cut.jsonl", [cut, searchain_row("q2", 0.0)])
    out = tmp_path / "report.html"
    assert main(["report", a, "--html", str(out)]) == 0
    assert out.read_text().count("cut at max_tokens") == 1  # the row without cut outputs says nothing


def test_each_runs_settings_are_on_the_page(tmp_path):
    _write(tmp_path / "ircot.jsonl", [ircot_row("q1", 1.0), ircot_row("q2", 0.0)])
    meta = {"method": "ircot", "profile": "paper", "lm": "openai/qwen", "api_base": "http://127.0.0.1:8000/v1",
            "retriever": "bm25", "knobs": {"k": 4, "answer_reader": "direct"}}
    (tmp_path / "ircot.meta.json").write_text(json.dumps(meta))
    from hopkit.report.runs import load_run

    page = build_page([load_run(tmp_path / "ircot.jsonl")])
    settings = page.split('id="settings"')[1].split("</table>")[0]
    for shown in ("ircot", "paper", "openai/qwen @ http://127.0.0.1:8000/v1", "bm25", "answer_reader=direct, k=4"):
        assert shown in settings, shown
