"""Headless Debian Chromium through selenium, for the report's browser test and its screenshots.

The system browser and driver (apt packages chromium and chromium-driver) are used as they are: nothing
is downloaded at run time. The flags keep Chromium off the network, which this machine closes anyway.
"""

from __future__ import annotations

import shutil
import tempfile
from typing import Any

from hopkit.errors import MissingArtifactError

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,1000")


def missing() -> str | None:
    """Why the browser cannot run here, or None."""
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        return "headless Chromium is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install 'hopkit[dev]')"
    return None


def open_browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    why = missing()
    if why is not None:
        raise MissingArtifactError(why)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in (*FLAGS, f"--user-data-dir={tempfile.mkdtemp(prefix='hopkit-chromium-')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def console_errors(driver: Any) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
