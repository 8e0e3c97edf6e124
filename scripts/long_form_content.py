"""What long-form answers of the bundled world hold: the maker, the maker's birthplace, and the reference's shape.

    python scripts/long_form_content.py LOG.jsonl [LOG2.jsonl ...] [--qids-from LOG.jsonl]

Each bundled long-form reference is composed from three paragraphs in one template: "<Work> is a <kind>
<made> by <maker> in <year>. <Maker> was a <role> born in <place> in <year>. It was published by <publisher>."
For each run log this counts the answers naming the maker and the maker's birthplace (the fact from the second
paragraph), and the answers opening in the reference's own sentence shape ("... is a <kind> written by X in
1857"): the first two are content, the third is form that ROUGE-L rewards. ``--qids-from`` restricts every
log to the questions of another log, for paired reading.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from hopkit.evaluation.paired import read_rows

MADE = r"(?:written|directed|composed|created|painted|designed|drawn|made|developed|recorded|built)"
MAKER = re.compile(MADE + r" by (.+?) in \d{4}")
BIRTHPLACE = re.compile(r"born in (.+?) in \d{4}")
REFERENCE_SHAPE = re.compile(r" is an? [a-z ]+ " + MADE + r" by .+ in \d{4}")


def counts(rows: list[dict]) -> dict[str, int]:
    maker = birthplace = shape = 0
    for row in rows:
        reference, answer = row["answers"][0], str((row.get("prediction") or {}).get("answer") or "").lower()
        found_maker, found_place = MAKER.search(reference), BIRTHPLACE.search(reference)
        maker += bool(found_maker) and found_maker.group(1).lower() in answer
        birthplace += bool(found_place) and found_place.group(1).lower() in answer
        shape += bool(REFERENCE_SHAPE.search(answer))
    return {"n": len(rows), "maker": maker, "birthplace": birthplace, "reference_shape": shape}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--qids-from", type=Path, default=None)
    args = parser.parse_args()
    wanted = list(read_rows(args.qids_from)) if args.qids_from else None
    print("| log | n | maker named | birthplace named | reference's sentence shape |")
    print("|---|---|---|---|---|")
    for path in args.logs:
        rows = read_rows(path)  # each question's final row, as the harness reads a resumed log
        chosen = [rows[q] for q in wanted if q in rows] if wanted is not None else list(rows.values())
        c = counts(chosen)
        print(f"| {path.name} | {c['n']} | {c['maker']} | {c['birthplace']} | {c['reference_shape']} |")


if __name__ == "__main__":
    main()
