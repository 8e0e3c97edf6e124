"""Screenshots of the HTML report (docs/report/*.png), from committed runs: each method's trace view, a two-run
page (SearChain against ToR on the same dev100 questions, both traces open, paired intervals) and a fact-check page.

    python scripts/report_screenshots.py      # needs Debian's chromium and chromium-driver, and selenium
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from hopkit.report import browser
from hopkit.report.page import build_page, read_run

ROOT = Path(__file__).resolve().parents[1]
RUNS = {  # method -> (run log, how to pick a row whose trace shows the method's structure)
    "searchain": ("docs/runs/searchain__local-qwen1.5b.jsonl",
                  lambda r: len((r.get("trace") or {}).get("tree", {}).get("branches") or []) >= 2),
    "ircot": ("docs/runs/ircot-colbert__local-qwen1.5b.jsonl", lambda r: len((r.get("trace") or {}).get("steps") or []) >= 3),
    "tor": ("docs/runs/tor__local-qwen1.5b.jsonl", lambda r: len((r.get("trace") or {}).get("nodes") or []) >= 5),
}


def main() -> int:
    reason = browser.missing()
    if reason:
        print(f"skipped: {reason}")
        return 1
    from selenium.webdriver.common.by import By

    out = ROOT / "docs" / "report"
    out.mkdir(parents=True, exist_ok=True)
    driver = browser.open_browser()
    try:
        for method, (log, wanted) in RUNS.items():
            rows = read_run(ROOT / log)
            row = next((r for r in rows if wanted(r)), rows[0])
            page = Path(tempfile.mkdtemp()) / f"{method}.html"
            page.write_text(build_page([(Path(log).stem, [row])], title=f"{method}: one question"), encoding="utf-8")
            driver.get(page.as_uri())
            element = driver.find_element(By.CSS_SELECTOR, "tr.question")
            element.find_element(By.CSS_SELECTOR, "details.trace > summary").click()
            target = out / f"{method}-trace.png"
            element.screenshot(str(target))
            errors = browser.console_errors(driver)
            print(f"{target.relative_to(ROOT)}: question {row['qid']}, console errors: {len(errors)}")
        pages(driver, out)
    finally:
        driver.quit()
    return 0


PAIR = ("docs/runs/dev100/searchain-zeroshot__local-qwen1.5b.jsonl", "docs/runs/dev100/tor__local-qwen1.5b.jsonl")
FACT_CHECK = "docs/runs/tasks/fact-check-ircot.jsonl"


def pages(driver, out: Path) -> None:
    """The two-run page and the fact-check page, each cut to a few questions so the screenshot stays readable."""
    from selenium.webdriver.common.by import By

    from hopkit.report.runs import ReportRun, cited_passages, load_run

    searchain, tor = (load_run(ROOT / log) for log in PAIR)
    shared = [r["qid"] for r in searchain.rows if r["qid"] in {t["qid"] for t in tor.rows}]
    differs = [q for q in shared if next(r for r in searchain.rows if r["qid"] == q)["metrics"]["em"]
               != next(r for r in tor.rows if r["qid"] == q)["metrics"]["em"]][:1]
    keep = set((differs + shared)[:4])
    runs = [ReportRun(run.label, [r for r in run.rows if r["qid"] in keep], run.task) for run in (searchain, tor)]
    passages, note = cited_passages([ROOT / PAIR[0]], "ircot:" + str(ROOT.parent / "shared/data/hotpotqa/dev100.jsonl"))
    shots = {"searchain-vs-tor.png": (build_page(runs, "SearChain against ToR (dev100, 4 questions)", passages,
                                                 note), True),
             "fact-check.png": (build_page([load_run(ROOT / FACT_CHECK, 6)], "IRCoT on bundled fact check",
                                           *cited_passages([ROOT / FACT_CHECK])), False)}
    for name, (html, open_traces) in shots.items():
        page = Path(tempfile.mkdtemp()) / "page.html"
        page.write_text(html, encoding="utf-8")
        driver.set_window_size(1400, 1000)
        driver.get(page.as_uri())
        if open_traces:
            row = driver.find_element(By.CSS_SELECTOR, "tr.question")
            for summary in row.find_elements(By.CSS_SELECTOR, "details.trace > summary"):
                summary.click()
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1400, min(height + 120, 6000))
        target = out / name
        driver.find_element(By.TAG_NAME, "body").screenshot(str(target))
        print(f"{target.relative_to(ROOT)}: console errors: {len(browser.console_errors(driver))}")


if __name__ == "__main__":
    sys.exit(main())
