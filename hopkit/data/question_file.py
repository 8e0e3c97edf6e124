"""A question file over a separate corpus file: ``qa:QUESTIONS.jsonl@CORPUS.jsonl``.

The layout a user's own data is most often in, and the one benchmarks with one shared corpus use (HippoRAG's
2WikiMultihopQA set): every question is answered over the same paragraphs, so retrieval is as hard as the corpus,
not as easy as a question's own ten contexts.

- Questions, one JSON object a line: ``question``, ``answers`` (a list, or one string; FlashRAG's
  ``golden_answers`` too), an id (``id`` or ``qid``;
  the line number when both are missing), and optionally ``gold_titles`` (the titles of the paragraphs that
  answer it) and ``type``.
- Corpus, one JSON object a line: ``title`` and ``text``, and optionally ``pid`` (else one is derived from the
  title and text, as for closed corpora); FlashRAG's ``id`` and ``contents`` lines are read too. ``hopkit index
  --corpus`` reads the same lines.

A gold title names every corpus paragraph with that title. A gold title that no paragraph has is reported when the
set loads (stderr), and kept on the example (``missing_gold_titles``), so a recall figure can say what it could not
count.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hopkit.data.corpus import Corpus, json_objects, read_jsonl_passages
from hopkit.data.examples import Dataset, local_corpus_name, make_example
from hopkit.errors import InputError, MissingArtifactError

SPEC_HELP = "qa:QUESTIONS.jsonl@CORPUS.jsonl"


def load_question_file(rest: str) -> Dataset:
    """The dataset named by what follows ``qa:`` (``QUESTIONS.jsonl@CORPUS.jsonl``)."""
    questions, at, corpus = rest.partition("@")
    if not at or not questions or not corpus:
        raise InputError(f"qa:{rest} names no corpus: give {SPEC_HELP} (a question file, '@', a corpus file)")
    questions_path, corpus_path = Path(questions), Path(corpus)
    for path, what in ((questions_path, "question"), (corpus_path, "corpus")):
        if not path.is_file():
            raise MissingArtifactError(f"{what} file {path} does not exist ({SPEC_HELP})")
    passages = list(_read_corpus(corpus_path))
    corpus_obj = Corpus(passages)
    by_title: dict[str, list[str]] = {}
    for passage in passages:
        by_title.setdefault(passage.title, []).append(passage.pid)
    examples, missing = [], 0
    seen: dict[str, int] = {}
    for line_no, row in json_objects(questions_path):
        try:
            question = str(row["question"]).strip()
            answers = row["answers"] if "answers" in row else row["golden_answers"]  # hopkit's, FlashRAG's
        except (KeyError, TypeError):
            raise InputError(f"{questions_path}:{line_no}: expected an object with 'question' and 'answers' (or "
                             f"FlashRAG's 'golden_answers') ({SPEC_HELP})") from None
        answers = [answers] if isinstance(answers, str) else [str(a) for a in answers or []]
        if not question or not answers:
            raise InputError(f"{questions_path}:{line_no}: empty question or answers")
        titles = row.get("gold_titles") or []
        if not isinstance(titles, list):
            raise InputError(f"{questions_path}:{line_no}: gold_titles must be a list of titles")
        gold = [pid for title in titles for pid in by_title.get(title, [])]
        unknown = [title for title in titles if title not in by_title]
        missing += bool(unknown)
        qid = str(row.get("id", row.get("qid", line_no)))
        if qid in seen:  # two questions under one id: a log keyed by id would keep one and lose the other
            raise InputError(f"{questions_path}:{line_no}: question id {qid!r} is also on line {seen[qid]}; "
                             "give every question its own id")
        seen[qid] = line_no
        examples.append(make_example(qid, question, answers, gold, type=row.get("type"),
                                     missing_gold_titles=unknown))
    if not examples:
        raise InputError(f"{questions_path}: no questions")
    if missing:
        first = next(ex for ex in examples if ex.missing_gold_titles)
        print(f"note: {missing} of {len(examples)} questions in {questions_path} name gold titles that are not in "
              f"{corpus_path} (e.g. {first.qid}: {first.missing_gold_titles[0]!r}); their recall counts only the "
              "gold paragraphs the corpus has", file=sys.stderr)
    name = f"qa:{questions_path.stem}"
    return Dataset(name, examples, corpus_obj, local_corpus_name(f"qa-{corpus_path.stem}", corpus_obj))


def _read_corpus(path: Path):
    """The corpus's passages (hopkit.data.corpus.read_jsonl_passages: the lines ``hopkit index --corpus`` reads)."""
    return read_jsonl_passages(path, InputError)
