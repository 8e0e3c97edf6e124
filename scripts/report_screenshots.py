"""Screenshots of each method's trace view in the HTML report (docs/report/*.png), from committed runs.

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
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
