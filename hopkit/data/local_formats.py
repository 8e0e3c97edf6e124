"""Readers for local files: IRCoT's processed JSONL and the IRCoT demonstration text format."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hopkit.data.examples import ClosedCorpusBuilder, Dataset, local_corpus_name, make_example
from hopkit.data.sentences import split_sentences
from hopkit.errors import InputError, MissingArtifactError


def _require(path: Path) -> Path:
    if not path.is_file():
        raise MissingArtifactError(f"dataset file {path} does not exist")
    return path


def load_ircot_jsonl(path: Path, name: str | None = None) -> Dataset:
    """One object per line: question_id, question_text, answers_objects[{spans}], contexts[{title,
    paragraph_text, is_supporting}]. Builds the closed corpus of all contexts."""
    builder = ClosedCorpusBuilder()
    examples = []
    with _require(path).open(encoding="utf-8") as lines:
        for line_no, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                answers = [span for obj in row["answers_objects"] for span in obj["spans"]]
                gold = [builder.add(c.get("title", ""), c["paragraph_text"])
                        for c in row["contexts"] if c.get("is_supporting")]
                for c in row["contexts"]:
                    builder.add(c.get("title", ""), c["paragraph_text"])
                examples.append(make_example(str(row["question_id"]), row["question_text"], answers, gold))
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise InputError(f"{path}:{line_no}: not IRCoT's processed format ({error!r}); expected "
                                 "question_id, question_text, answers_objects, contexts") from None
    corpus = builder.build()
    return Dataset(name or f"ircot:{path.stem}", examples, corpus, local_corpus_name(f"ircot-{path.stem}", corpus))


_BLOCK = re.compile(r"^# METADATA: (\{.*\})\s*$", re.M)


def load_ircot_demos(path: Path) -> Dataset:
    """IRCoT's demonstration files: ``# METADATA: {...}`` then ``Wikipedia Title:`` paragraphs, ``Q:``, ``A:``.

    The files do not mark gold paragraphs, so a paragraph counts as gold when its title (without a
    parenthetical such as "(album)") is named in the block's chain of thought: the chain names
    the entities whose paragraphs it used. Recall on these files is therefore approximate.
    """
    dataset = parse_ircot_demos(_require(path).read_text(encoding="utf-8"), str(path), f"ircot-demos:{path.stem}",
                                f"demos-{path.stem}")
    dataset.corpus_name = local_corpus_name(dataset.corpus_name, dataset.corpus)
    return dataset


def parse_ircot_demos(text: str, source: str, name: str, corpus_name: str) -> Dataset:
    """The blocks of one text in IRCoT's demonstration layout; ``source`` names the text in errors."""
    builder = ClosedCorpusBuilder()
    examples = []
    starts = [m.start() for m in _BLOCK.finditer(text)] + [len(text)]
    for start, end in zip(starts, starts[1:]):
        block = text[start:end]
        opening = _BLOCK.match(block)
        if opening is None:  # every block starts where the pattern matched
            raise AssertionError(f"{source}: a block that does not open as a demonstration")
        meta = json.loads(opening.group(1))
        paragraphs = re.findall(r"^Wikipedia Title: (.*)\n(.*(?:\n(?!Wikipedia Title:|Q:|A:|# ).*)*)", block, re.M)
        question = re.search(r"^Q: (.*)$", block, re.M)
        answer = re.search(r"^A: (.*)$", block, re.M | re.S)
        if not question or not answer:
            raise InputError(f"{source}: block {meta.get('qid')!r} has no 'Q:' or 'A:' line")
        chain = " ".join(answer.group(1).split())
        final = re.search(r"answer is:?\s*(.*?)\.?\s*$", chain, re.I)
        gold = []
        for title, body in paragraphs:
            pid = builder.add(title.strip(), " ".join(body.split()))
            base = re.sub(r"\s*\(.*\)\s*$", "", title.strip()).lower()
            if base and base in chain.lower() and pid not in gold:
                gold.append(pid)
        # the chain as sentences, the last one the answer step: what every method's demonstrations are built from
        examples.append(make_example(str(meta.get("qid")), question.group(1).strip(),
                                     [final.group(1) if final else chain], gold, chain=split_sentences(chain)))
    if not examples:
        raise InputError(f"{source}: no '# METADATA:' blocks found; is this an IRCoT demonstration file?")
    return Dataset(name, examples, builder.build(), corpus_name)
