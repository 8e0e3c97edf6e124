"""How often cutting paragraphs to their first W words (the ``paragraph_words`` knob) hides a gold answer.

For every paragraph a run log's method read (its prediction's ``retrieved``, else its citations) that holds one of
the question's gold answers (normalized, as whole words), says whether the answer is still in the first W words.
No LM call: the paragraphs come from the dataset's corpus.

    python scripts/paragraph_cut.py --dataset musique:validation@../shared/data/musique/dev100.jsonl \
        docs/runs/datasets-replayed/musique/ircot-hopkit-indomain-skipq.jsonl [--words 120]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hopkit.data.corpus import Corpus  # noqa: E402
from hopkit.data.registry import load_dataset_spec  # noqa: E402
from hopkit.evaluation.metrics import cover_exact_match  # noqa: E402
from hopkit.evaluation.paired import read_rows  # noqa: E402


def count_cut(rows: list[dict], corpus: Corpus, words: int) -> tuple[int, int]:
    """(paragraphs read that hold a gold answer, of them those whose first ``words`` words still hold it)."""
    holding = kept = 0
    for row in rows:
        prediction = row.get("prediction") or {}
        answers = row.get("answers") or []
        for pid in prediction.get("retrieved") or prediction.get("citations") or []:
            if pid not in corpus:
                continue
            text = corpus[pid].text
            found = [a for a in answers if cover_exact_match(text, a)]  # the gold inside the text, whole words
            if not found:
                continue
            holding += 1
            head = " ".join(text.split()[:words])
            kept += any(cover_exact_match(head, a) for a in found)
    return holding, kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--dataset", required=True, help="the spec the logs were run on (its corpus)")
    parser.add_argument("--words", type=int, default=120, help="the cut (paragraph_words); default 120")
    args = parser.parse_args()
    corpus = load_dataset_spec(args.dataset).corpus
    for log in args.logs:
        holding, kept = count_cut(list(read_rows(log).values()), corpus, args.words)
        print(f"{log.name}: {holding} paragraphs read hold a gold answer; within {args.words} words {kept}, "
              f"beyond {holding - kept}")


if __name__ == "__main__":
    main()
