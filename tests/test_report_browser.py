"""The HTML report in a real browser (Debian's headless Chromium via selenium): filters, an expanded
SearChain tree, no script error, and a page whose data holds <script> runs nothing."""

from pathlib import Path

import pytest
from test_report import EVIL, searchain_row

from hopkit.report import browser
from hopkit.report.page import build_page, read_run

REASON = browser.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=str(REASON))
RUNS = Path(__file__).resolve().parent / "fixtures" / "runs"


@pytest.fixture(scope="module")
def chromium():
    driver = browser.open_browser()
    yield driver
    driver.quit()


def _open(chromium, tmp_path, page):
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    browser.console_errors(chromium)  # drop what earlier pages logged
    chromium.get(path.as_uri())
    return path


def test_filters_hide_rows_and_a_searchain_tree_expands(chromium, tmp_path):
    from selenium.webdriver.common.by import By

    rows = [searchain_row("q1", 1.0), searchain_row("q2", 0.0, "Who came first, Atlas or Brann?"),
            {**searchain_row("q3", 0.0), "error": "LM timed out"}]
    _open(chromium, tmp_path, build_page([("run", rows)]))

    def visible():
        return [r.get_attribute("data-qid") for r in chromium.find_elements(By.CSS_SELECTOR, "tr.question")
                if r.is_displayed()]

    assert visible() == ["q1", "q2", "q3"]
    chromium.find_element(By.CSS_SELECTOR, 'button[data-kind="status"][data-value="wrong"]').click()
    assert visible() == ["q2"]
    chromium.find_element(By.CSS_SELECTOR, 'button[data-kind="status"][data-value="all"]').click()
    chromium.find_element(By.CSS_SELECTOR, 'button[data-kind="form"][data-value="either-or"]').click()
    assert visible() == ["q2"] and chromium.find_element(By.ID, "shown-count").text == "1"
    chromium.find_element(By.CSS_SELECTOR, 'button[data-kind="form"][data-value="all"]').click()
    first = chromium.find_element(By.CSS_SELECTOR, 'tr[data-qid="q1"]')
    node = first.find_element(By.CSS_SELECTOR, 'li.node[data-id="r2.1"]')
    assert not node.is_displayed()
    first.find_element(By.CSS_SELECTOR, "details.trace > summary").click()
    nodes = [n.get_attribute("data-id") for n in first.find_elements(By.CSS_SELECTOR, ".searchain-tree li.node")]
    assert nodes == ["r1.1", "r2.1"] and node.is_displayed()
    marked = first.find_elements(By.CSS_SELECTOR, ".searchain-tree [data-action]")
    actions = [s.get_attribute("data-action") for s in marked]
    assert actions == ["corrected", "completed"]
    assert browser.console_errors(chromium) == []


def test_script_in_the_data_is_shown_and_never_run(chromium, tmp_path):
    from selenium.webdriver.common.by import By

    _open(chromium, tmp_path, build_page([("run", [searchain_row(question="Is it " + EVIL)])]))
    assert chromium.execute_script("return window.__pwned === undefined")
    cell = chromium.find_element(By.CSS_SELECTOR, 'tr[data-qid="q1"] td')
    assert "<script>window.__pwned = 1</script>" in cell.text
    assert browser.console_errors(chromium) == []


@pytest.mark.parametrize("log", ["searchain__local-qwen1.5b.jsonl", "ircot-colbert__local-qwen1.5b.jsonl",
                                 "tor__local-qwen1.5b.jsonl"])
def test_reports_of_the_committed_runs_open_without_console_errors(chromium, tmp_path, log):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    rows = read_run(RUNS / log)
    _open(chromium, tmp_path, build_page([(log, rows)]))
    # a large log's rows may still be rendering on a loaded machine: wait for them, then count
    WebDriverWait(chromium, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr.question")) >= len(rows))
    assert len(chromium.find_elements(By.CSS_SELECTOR, "tr.question")) == len(rows)
    chromium.find_element(By.CSS_SELECTOR, "details.trace > summary").click()
    assert chromium.find_element(By.CSS_SELECTOR, "details.trace .trace-view").is_displayed()
    assert browser.console_errors(chromium) == []


def _rows_marked(chromium, status):
    from selenium.webdriver.common.by import By

    return [r.get_attribute("data-qid") for r in chromium.find_elements(By.CSS_SELECTOR, f"tr.question.{status}")]


def test_a_fact_check_page_shows_label_accuracy_and_marks_right_labels_right(chromium, tmp_path):
    from selenium.webdriver.common.by import By

    from hopkit.report.runs import load_run

    run = load_run(RUNS / "tasks" / "fact-check-ircot.jsonl")
    _open(chromium, tmp_path, build_page([run]))
    headers = [h.text for h in chromium.find_elements(By.CSS_SELECTOR, "#summary th")]
    assert "label_acc" in headers and "em" not in headers
    right = {r["qid"] for r in run.rows if r["metrics"]["label_acc"] == 1}
    assert right and set(_rows_marked(chromium, "correct")) == right
    assert set(_rows_marked(chromium, "wrong")) == {r["qid"] for r in run.rows} - right
    chromium.find_element(By.CSS_SELECTOR, 'button[data-kind="status"][data-value="correct"]').click()
    assert chromium.find_element(By.ID, "shown-count").text == str(len(right))
    assert browser.console_errors(chromium) == []


def test_a_long_form_page_shows_rouge_l(chromium, tmp_path):
    from selenium.webdriver.common.by import By

    from hopkit.report.runs import load_run

    run = load_run(RUNS / "tasks" / "long-form-searchain.jsonl")
    _open(chromium, tmp_path, build_page([run]))
    headers = [h.text for h in chromium.find_elements(By.CSS_SELECTOR, "#summary th")]
    assert headers[3] == "rouge_l" and "em" not in headers
    first = chromium.find_element(By.CSS_SELECTOR, "tr.question .metrics")
    assert first.text.startswith("rouge_l ") and _rows_marked(chromium, "graded")
    assert browser.console_errors(chromium) == []


def test_three_runs_side_by_side_each_trace_drawn_and_a_link_opens_it(chromium, tmp_path):
    from selenium.webdriver.common.by import By
    from test_report import ircot_row, tor_row

    runs = [("searchain", [searchain_row("q1", 1.0), searchain_row("q2", 0.0)]),
            ("tor", [tor_row("q1", 1.0), tor_row("q2", 1.0)]), ("ircot", [ircot_row("q1", 0.0), ircot_row("q2", 0.0)])]
    _open(chromium, tmp_path, build_page(runs))
    row = chromium.find_element(By.CSS_SELECTOR, 'tr.question[data-qid="q2"]')
    cells = row.find_elements(By.CSS_SELECTOR, "td.run-cell")
    assert len(cells) == 3
    for cell, view in zip(cells[1:], (".tor-tree", ".steps")):  # the second and third runs' traces, drawn
        cell.find_element(By.CSS_SELECTOR, "details.trace > summary").click()
        assert cell.find_element(By.CSS_SELECTOR, view).is_displayed()
    link = chromium.find_element(By.CSS_SELECTOR, '#side-by-side a[href="#t-0-2"]')
    link.click()
    opened = chromium.find_element(By.ID, "t-0-2")
    assert opened.get_attribute("open") is not None and opened.find_element(By.CSS_SELECTOR, ".steps").is_displayed()
    assert browser.console_errors(chromium) == []


def test_a_check_firing_is_drawn_with_before_after_and_why(chromium, tmp_path):
    from selenium.webdriver.common.by import By

    rows = read_run(RUNS / "profiles" / "searchain-hopkit.jsonl")
    fired = next(r for r in rows if (r["trace"].get("option_check") or {}).get("before")
                 not in (None, (r["trace"].get("option_check") or {}).get("after")))
    _open(chromium, tmp_path, build_page([("searchain", [fired])]))
    chromium.find_element(By.CSS_SELECTOR, "details.trace > summary").click()
    step = chromium.find_element(By.CSS_SELECTOR, 'li.answer-step[data-step="option_check"]')
    record = fired["trace"]["option_check"]
    assert step.is_displayed() and step.get_attribute("data-changed") == "true"
    assert record["before"] in step.text and record["after"] in step.text and "options" in step.text
    assert browser.console_errors(chromium) == []


def test_the_question_column_is_wide_enough_to_read(chromium, tmp_path):
    from selenium.webdriver.common.by import By

    question = "Where was the founder of the company that published the album Season of Zokbreth born, and when?"
    from test_report import ircot_row, tor_row

    runs = [("searchain", [searchain_row("q1", 1.0, question=question)]), ("tor", [tor_row("q1", 1.0)]),
            ("ircot", [ircot_row("q1", 0.0)])]  # three runs side by side: the page is crowded
    _open(chromium, tmp_path, build_page(runs))
    cell = chromium.find_element(By.CSS_SELECTOR, 'tr.question[data-qid="q1"] > td:first-child')
    lines = chromium.execute_script("var r = document.createRange(); r.selectNodeContents(arguments[0]); "
                                    "return r.getClientRects().length", cell)  # one rectangle a wrapped line
    assert cell.size["width"] >= 300 and lines <= 3, (cell.size, lines)
