"""Fine-tuning a ColBERT checkpoint on (query, positive, hard negative) triples with colbert-ai's trainer."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from hopkit.data.corpus import Corpus
from hopkit.errors import InputError
from hopkit.retrieval.colbert.compat import no_git_metadata, run_config, single_process_training
from hopkit.retrieval.colbert.index import colbert_text
from hopkit.retrieval.staging import CHECKPOINT_MARKER, check_replaceable


@dataclass(frozen=True)
class TrainSettings:
    steps: int = 200
    bsize: int = 8
    lr: float = 1e-5
    warmup: int = 20
    doc_maxlen: int = 180
    query_maxlen: int = 32


def read_triples(path: Path, corpus: Corpus) -> tuple[list[list[int]], dict[int, str]]:
    """Our triples JSONL (query, positive, negative pids) as colbert-ai's [qid, pos, neg] positions."""
    position = {p.pid: i for i, p in enumerate(corpus)}
    queries: dict[str, int] = {}
    triples = []
    for line_no, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        missing = [pid for pid in (row["positive"], row["negative"]) if pid not in position]
        if missing:
            raise InputError(f"{path}:{line_no}: pid {missing[0]!r} is not in the corpus being trained on")
        qid = queries.setdefault(row["query"], len(queries))
        triples.append([qid, position[row["positive"]], position[row["negative"]]])
    return triples, {qid: text for text, qid in queries.items()}


def train_colbert(init_checkpoint: str, triples_path: Path, corpus: Corpus, out: Path,
                  settings: TrainSettings = TrainSettings()) -> Path:
    """Train in-process (CPU or one GPU) and copy the final checkpoint to ``out``."""
    from colbert import Trainer
    from colbert.infra import ColBERTConfig, Run

    check_replaceable(out, CHECKPOINT_MARKER, "a ColBERT checkpoint")  # before the training, not after it
    triples, queries = read_triples(triples_path, corpus)
    collection = [colbert_text(p) for p in corpus]
    work = out.with_name(out.name + ".training")
    shutil.rmtree(work, ignore_errors=True)
    with Run().context(run_config(work, "train")), single_process_training(), no_git_metadata():
        config = ColBERTConfig(bsize=settings.bsize, lr=settings.lr, maxsteps=settings.steps,
                               warmup=settings.warmup, doc_maxlen=settings.doc_maxlen,
                               query_maxlen=settings.query_maxlen, nway=2, accumsteps=1,
                               use_ib_negatives=False, amp=False)
        trainer = Trainer(triples=triples, queries=queries, collection=collection, config=config)
        from colbert.infra.launcher import Launcher
        from colbert.training.training import train

        trainer.configure(triples=triples, queries=queries, collection=collection, checkpoint=init_checkpoint)
        final = Launcher(train).launch_without_fork(trainer.config, triples, queries, collection)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(final, out)
    shutil.rmtree(work, ignore_errors=True)
    return out
