"""Screenshots of the HTML report (docs/report/*.png): each method's trace view and a fact-check page from the
test fixtures' runs, and with --pair A.jsonl B.jsonl a two-run page (both traces open, paired intervals).

    python scripts/report_screenshots.py [--pair SEARCHAIN.jsonl TOR.jsonl --dataset SPEC]   # needs chromium
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from hopkit.report import browser
from hopkit.report.page import build_page, read_run

ROOT = Path(__file__).resolve().parents[1]
RUNS = {  # method -> (run log, how to pick a row whose trace shows the method's structure)
    "searchain": ("tests/fixtures/runs/searchain__local-qwen1.5b.jsonl",
                  lambda r: len((r.get("trace") or {}).get("tree", {}).get("branches") or []) >= 2),
    "ircot": ("tests/fixtures/runs/ircot-colbert__local-qwen1.5b.jsonl", lambda r: len((r.get("trace") or {}).get("steps") or []) >= 3),
    "tor": ("tests/fixtures/runs/tor__local-qwen1.5b.jsonl", lambda r: len((r.get("trace") or {}).get("nodes") or []) >= 5),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", nargs=2, type=Path, default=None, metavar=("A", "B"))
    parser.add_argument("--dataset", default=None, help="the pair's dataset spec, for the cited paragraphs' text")
    parser.add_argument("--pair-name", default="searchain-vs-tor.png", help="the pair page's file in docs/report/")
    args = parser.parse_args()
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
        pages(driver, out, args.pair, args.dataset, args.pair_name)
    finally:
        driver.quit()
    return 0


FACT_CHECK = "tests/fixtures/runs/tasks/fact-check-ircot.jsonl"


def pages(driver, out: Path, pair: list[Path] | None, dataset: str | None, pair_name: str) -> None:
    """The two-run page and the fact-check page, each cut to a few questions so the screenshot stays readable."""
    from selenium.webdriver.common.by import By

    from hopkit.report.runs import ReportRun, cited_passages, load_run

    shots = {"fact-check.png": (build_page([load_run(ROOT / FACT_CHECK, 6)], "IRCoT on bundled fact check",
                                           *cited_passages([ROOT / FACT_CHECK])), False)}
    if pair:
        first, second = (load_run(log) for log in pair)
        shared = [r["qid"] for r in first.rows if r["qid"] in {t["qid"] for t in second.rows}]
        differs = [q for q in shared if next(r for r in first.rows if r["qid"] == q)["metrics"]["em"]
                   != next(r for r in second.rows if r["qid"] == q)["metrics"]["em"]][:1]
        keep = set((differs + shared)[:4])
        runs = [ReportRun(run.label, [r for r in run.rows if r["qid"] in keep], run.task, run.settings)
                for run in (first, second)]
        passages, note = cited_passages([pair[0]], dataset)
        shots[pair_name] = (build_page(runs, f"{first.label} against {second.label} (4 questions)",
                                                    passages, note), True)
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
