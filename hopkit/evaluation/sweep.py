"""One knob swept over its values on a dataset, every value's rows in its own run log (``hopkit sweep``).

Each question is answered with every value in turn, in the order given, before the next question: where the values
only grow a prompt (OneR's K adds paragraphs after the first K), the LM re-reads only what each larger value adds,
since llama.cpp reuses the shared prefix. Each value's log is the file and settings ``hopkit eval --set KNOB=VALUE
--out ...`` writes, so a log can be resumed, reported or compared by either. Finished (question, value) pairs are
skipped on a rerun."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import dspy
from tqdm import tqdm

from hopkit.evaluation.harness import run_one
from hopkit.evaluation.metrics import Metric
from hopkit.evaluation.run_log import RunLog


def sweep(programs: dict[Any, Callable[..., dspy.Prediction]], examples: Sequence[dspy.Example],
          metrics: Sequence[Metric], logs: dict[Any, RunLog], progress: bool = True) -> None:
    """Answer every example with every value's program, question by question; ``logs[value]`` keeps its rows."""
    with ExitStack() as held:
        for log in logs.values():
            held.enter_context(log.writing())  # one writer per log, as hopkit eval
        done = {value: log.done_qids() for value, log in logs.items()}
        for example in tqdm(examples, desc="sweep", unit="q", dynamic_ncols=True, disable=not progress):
            for value, program in programs.items():
                if example.qid not in done[value]:
                    logs[value].append(run_one(program, example, metrics))


def log_path(folder: Path, method: str, knob: str, value: Any, lm: str) -> Path:
    from hopkit.paths import slug

    return folder / f"{slug(method)}-{knob}{slug(str(value))}__{slug(lm)}.jsonl"
