"""How many questions of a dataset name every gold paragraph's title in their own text.

Where they all do (HotpotQA comparison questions), one retrieval with the question can find every gold
paragraph, and a multi-step retriever has no later hop to discover.

    python scripts/gold_named_in_question.py ircot:../shared/data/hotpotqa/dev100.jsonl [--n 50]
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections import Counter

from hopkit.data.registry import load_dataset_spec
from hopkit.text.question_form import question_form


def normalized(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"\W+", " ", ascii_text.lower()).strip()


def named(title: str, question: str) -> bool:
    """The title without its parenthesised disambiguation, e.g. "Lit (band)" -> "Lit"."""
    bare = re.sub(r"\s*\(.*?\)", "", title)
    return f" {normalized(bare)} " in f" {normalized(question)} "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", help="a dataset spec, e.g. ircot:FILE or ircot-demos:FILE")
    parser.add_argument("--n", type=int, default=None, help="first n questions only")
    args = parser.parse_args()
    dataset = load_dataset_spec(args.dataset)
    examples = dataset.examples[: args.n] if args.n else dataset.examples
    every, some, forms = 0, 0, Counter()
    for example in examples:
        hits = [named(dataset.corpus[pid].title, example.question) for pid in example.gold_pids]
        every += all(hits) and bool(hits)
        some += any(hits)
        forms[question_form(example.question)] += 1
    print(f"{len(examples)} questions; every gold title named in the question: {every}; at least one: {some}")
    print("question forms: " + ", ".join(f"{form} {count}" for form, count in forms.most_common()))


if __name__ == "__main__":
    main()
