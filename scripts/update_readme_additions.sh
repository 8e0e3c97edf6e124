#!/usr/bin/env bash
# Regenerate the README's additions table (between its two markers) from the declarations and the ablations.
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(.venv/bin/python scripts/additions_table.py "$@")
TABLE="$table" .venv/bin/python - <<'PY'
import os, re
from pathlib import Path
readme = Path("README.md")
text = readme.read_text(encoding="utf-8")
start, end = "<!-- additions-table -->", "<!-- /additions-table -->"
if start not in text:
    text = text.replace("ADDITIONS_TABLE", f"{start}\n{end}")
body = f"{start}\n{os.environ['TABLE']}\n{end}"
readme.write_text(re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: body, text, flags=re.S), encoding="utf-8")
PY
