"""The HTML run report: everything from data is escaped, traces are drawn per method, two runs side by side."""

import json

from hopkit.cli.main import main
from hopkit.report.page import build_page, script_hash

EVIL = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2">'


def searchain_row(qid="q1", em=1.0, question="Where was the maker of Atlas born?"):
    nodes = [{"id": "r1.1", "parent": "root", "query": "Who made Atlas?", "lm_answer": "Brann " + EVIL, "unsolved": False,
              "action": "verified-corrected", "reader_answer": "Kellis", "confidence": 0.93, "pid": "p1",
              "duplicate_of": None},
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


def test_two_runs_show_where_they_differ(tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("\n".join(json.dumps(searchain_row(q, em)) for q, em in (("q1", 1.0), ("q2", 0.0))) + "\n")
    b.write_text("\n".join(json.dumps(searchain_row(q, em)) for q, em in (("q1", 1.0), ("q2", 1.0))) + "\n")
    out = tmp_path / "report.html"
    assert main(["report", str(a), str(b), "--html", str(out)]) == 0
    page = out.read_text()
    assert "Where the two runs differ (1 questions)" in page and page.count('class="differs"') == 1
