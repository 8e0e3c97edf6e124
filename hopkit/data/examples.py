"""Turning dataset rows into dspy.Examples, and closed corpora from a dataset's own contexts."""

from __future__ import annotations

from dataclasses import dataclass

import dspy

from hopkit.data.corpus import Corpus, context_pid
from hopkit.data.passage import Passage
from hopkit.errors import InputError
from hopkit.tasks import DEFAULT_TASK


def make_example(qid: str, question: str, answers: list[str], gold_pids: list[str], **extra: object) -> dspy.Example:
    """The question is the only input; answers and gold pids are labels. ``answer`` (the first alias) is there too,
    the field DSPy's own metrics and datasets use (``dspy.evaluate.answer_exact_match``)."""
    first = {"answer": str(answers[0])} if answers else {}  # an unlabelled question has none to show
    return dspy.Example(qid=qid, question=question, **first, answers=list(answers), gold_pids=list(gold_pids),
                        **extra).with_inputs("question")


class ClosedCorpusBuilder:
    """Collects contexts across questions, deduplicated on (title, text)."""

    def __init__(self) -> None:
        self._passages: dict[str, Passage] = {}

    def add(self, title: str, text: str) -> str:
        pid = context_pid(title, text)
        self._passages.setdefault(pid, Passage(pid=pid, title=title, text=text))
        return pid

    def build(self) -> Corpus | None:
        """The closed corpus, or None when the rows brought no passages (KILT: answer over your own)."""
        return Corpus(self._passages.values()) if self._passages else None


def local_corpus_name(stem: str, corpus: Corpus | None) -> str:
    """The default index name of a corpus read from a user's file: its stem and the start of its fingerprint, so
    that two files of one name in different folders (two ``corpus.jsonl``) never share one default index."""
    return f"{stem}-{corpus.fingerprint()[:8]}" if corpus is not None else stem


@dataclass
class Dataset:
    """Examples plus the corpus they are answered from (a closed corpus where built from contexts)."""

    name: str
    examples: list[dspy.Example]
    corpus: Corpus | None  # None: an open-corpus dataset, answered over a user's index (--index)
    corpus_name: str
    task: str = DEFAULT_TASK  # hopkit/tasks.py: what the answer is and how it is scored
    stored_copy: str | None = None  # the rows `hopkit data add` kept, where they stood in for the hub
    spec: str | None = None  # what it was loaded from (``bundled:dev``), so a run's spec can name it

    def own_corpus(self) -> Corpus:
        """The corpus its questions come with, which demonstrations and the bundled indexes need."""
        if self.corpus is None:
            raise InputError(f"dataset {self.name!r} has no corpus of its own (an open-corpus dataset): answer it "
                             "over an index, and take demonstrations from a dataset with paragraphs")
        return self.corpus


def pick_questions(examples: list, n: int | None, questions: str | None) -> list:
    """The questions a run answers: ``--questions A-B`` (1-based, inclusive) or ``--questions @FILE`` (the qids the
    file lists, in the dataset's order), then the first ``--n``."""
    if n is not None and n < 1:
        raise InputError("n must be at least 1")
    if questions and questions.startswith("@"):
        wanted = listed_qids(questions[1:])
        known = {str(example.qid) for example in examples}
        missing = [qid for qid in wanted if qid not in known]
        if missing:
            raise InputError(f"questions {questions}: {len(missing)} qid(s) the dataset does not have, e.g. "
                             f"{missing[0]!r}")
        examples = [example for example in examples if str(example.qid) in wanted]
    elif questions:
        check_question_range(questions)
        first, _, last = questions.partition("-")
        if int(first) > len(examples):
            raise InputError(f"questions {questions}: the dataset has {len(examples)} questions")
        examples = examples[int(first) - 1:int(last)]
    return examples[:n] if n else list(examples)


def check_question_range(questions: str) -> None:
    """``A-B`` with 1 <= A <= B, or ``@FILE`` of qids (read when the questions are picked)."""
    if questions.startswith("@"):
        return
    first, sep, last = questions.partition("-")
    if not sep or not first.strip().isdigit() or not last.strip().isdigit() or not 1 <= int(first) <= int(last):
        raise InputError(f"questions expects A-B with 1 <= A <= B (e.g. 51-80) or @FILE of qids, got {questions!r}")


def listed_qids(path: str) -> set[str]:
    """The qids a file lists, one a line (blank lines and ``#`` comments skipped), as ``hopkit losses --list`` and
    ``hopkit data cut --show`` print them."""
    from pathlib import Path

    file = Path(path)
    if not file.is_file():
        raise InputError(f"questions @{path}: no file of qids there (one qid a line)")
    qids = {line.split("#")[0].strip() for line in file.read_text(encoding="utf-8").splitlines()}
    qids.discard("")
    if not qids:
        raise InputError(f"questions @{path}: the file lists no qid (one a line)")
    return qids

