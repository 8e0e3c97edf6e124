"""For each setting of a SearChain study: dev F1 and how often the verifier's span came from a gold paragraph.

    python scripts/searchain_reader_paragraphs.py runs/optimize/searchain-bundled-dev-f1-none-local-qwen1.5b
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def setting_rows(folder: Path) -> list[tuple[dict, list[dict]]]:
    settings = []
    for meta in sorted((folder / "settings").glob("setting-*.meta.json")):
        lines = meta.with_name(meta.name.replace(".meta.json", ".jsonl")).read_text().splitlines()
        settings.append((json.loads(meta.read_text())["knobs"], [json.loads(line) for line in lines if line]))
    return sorted(settings, key=lambda item: (item[0]["k"], item[0]["answer_form"]))


def main(folder: Path) -> None:
    print("| k | answer form | theta | n | F1 | nodes read | span from a gold paragraph |\n|---|---|---|---|---|---|---|")
    for knobs, rows in setting_rows(folder):
        read = [(node["pid"], set(row["gold_pids"])) for row in rows for node in row["trace"]["tree"]["nodes"]
                if node["pid"]]
        gold = sum(pid in golds for pid, golds in read)
        f1 = 100 * sum(row["metrics"]["f1"] for row in rows) / len(rows)
        print(f"| {knobs['k']} | {knobs['answer_form']} | {knobs['theta']:.2f} | {len(rows)} | {f1:.1f} | {len(read)} "
              f"| {gold} ({100 * gold / max(len(read), 1):.0f}%) |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
