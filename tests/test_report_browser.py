"""The HTML report in a real browser (Debian's headless Chromium via selenium): filters, an expanded
SearChain tree, no script error, and a page whose data holds <script> runs nothing."""

import json
from pathlib import Path

import pytest

from hopkit.report import browser
from hopkit.report.page import build_page, read_run
from test_report import EVIL, searchain_row

REASON = browser.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=str(REASON))
RUNS = Path(__file__).resolve().parents[1] / "docs" / "runs"


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
    actions = [s.get_attribute("data-action") for s in first.find_elements(By.CSS_SELECTOR, ".searchain-tree [data-action]")]
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

    rows = read_run(RUNS / log)
    _open(chromium, tmp_path, build_page([(log, rows)]))
    assert len(chromium.find_elements(By.CSS_SELECTOR, "tr.question")) == len(rows)
    chromium.find_element(By.CSS_SELECTOR, "details.trace > summary").click()
    assert chromium.find_element(By.CSS_SELECTOR, "details.trace .trace-view").is_displayed()
    assert browser.console_errors(chromium) == []
