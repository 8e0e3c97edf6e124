"""Grid settings that share their work, answered before the tune study's trials read their rows.

Two of the papers' grids repeat work that a setting-by-setting run would do again:
- OneR's K: a larger K's prompt holds the smaller one's (the top K paragraphs, then the question), so each question
  is answered over ascending K and the LM re-reads only the paragraphs a larger K adds (hopkit/evaluation/sweep.py).
- IRCoT's reader: the reader only reads what the chain collected, so at each retrieval setting the chain runs once
  and both readers (Direct and CoT) read it. The retrieval settings run one after another, each over all questions.

Each setting's rows go to the log its trial reads (hopkit/optimize/objective.py), so the study finds them answered,
and a rerun skips what is done. A shared chain's row carries ``shared_chain`` and the chain's cost added to its
reader's: the cost the setting would have had on its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any

import dspy
from tqdm import tqdm

from hopkit.data.examples import Dataset
from hopkit.evaluation.harness import run_one
from hopkit.evaluation.metrics import Metric
from hopkit.evaluation.run_log import RunLog
from hopkit.knobs.knob import Profile
from hopkit.lm.usage import usage_scope
from hopkit.programs.registry import ProgramParts

# methods whose prompt at a larger K holds the prompt at a smaller one
NESTED_K = ("oner", "oner-cot")
SHARED_CHAIN = ("ircot",)  # methods whose grid varies the reader over one chain
READER = "answer_reader"  # the knob that names the reader


def answer_shared(method: str, grid: dict[str, list[Any]], train: Dataset | None, tune: Sequence[dspy.Example],
                  retriever: Any, metric: Metric, logs_for: Callable[[dict[str, Any]], RunLog], profile: Profile,
                  fixed: dict[str, Any] | None = None, progress: bool = True,
                  say: Callable[[str], None] = print) -> bool:
    """Answer the grid's settings on the tune questions with their work shared; False where the grid shares none.
    ``fixed`` knobs are held in every setting (and, like the trials' logs, left out of the logs' keys)."""
    build = ProgramParts(method, retriever, None, train, profile, fixed=fixed or {}).program

    if method in NESTED_K and set(grid) == {"k"}:
        _nested_k(build, sorted(grid["k"]), tune, metric, logs_for, progress, say)
        return True
    if method in SHARED_CHAIN and len(grid.get(READER, [])) > 1:
        _shared_chains(build, grid, tune, metric, logs_for, progress, say)
        return True
    return False


def _nested_k(build: Callable[..., Any], ks: list[int], tune: Sequence[dspy.Example], metric: Metric,
              logs_for: Callable[[dict[str, Any]], RunLog], progress: bool, say: Callable[[str], None]) -> None:
    from hopkit.evaluation.sweep import sweep

    programs = {k: build(k=k) for k in ks}
    say(f"answering the {len(tune)} tune questions with every K in {ks}, question by question ...")
    sweep(programs, tune, [metric], {k: logs_for({"k": k}) for k in ks}, progress=progress)


def _shared_chains(build: Callable[..., Any], grid: dict[str, list[Any]], tune: Sequence[dspy.Example],
                   metric: Metric, logs_for: Callable[[dict[str, Any]], RunLog], progress: bool,
                   say: Callable[[str], None]) -> None:
    readers = grid[READER]
    others = {name: values for name, values in grid.items() if name != READER}
    groups = [dict(zip(others, values)) for values in itertools.product(*others.values())]
    settings = [({**group, READER: reader}, i) for i, group in enumerate(groups) for reader in readers]
    programs = {(i, s[READER]): build(**s) for s, i in settings}
    logs = {(i, s[READER]): logs_for(s) for s, i in settings}
    say(f"answering the {len(tune)} tune questions: one chain for each of {len(groups)} retrieval settings, read by "
        f"{' and '.join(readers)} ...")
    with ExitStack() as held:
        for log in logs.values():
            held.enter_context(log.writing())
        done = {key: log.done_qids() for key, log in logs.items()}
        # one retrieval setting's questions after another, not question by question: a setting's few-shot prompts
        # (its reasoner's and both readers') then stay in the engine's prefix cache from one question to the next,
        # where interleaving every setting's prompts would evict them and evaluate each prefix again per question
        bar = tqdm(total=len(groups) * len(tune), desc="grid", unit="chain", dynamic_ncols=True, disable=not progress)
        for i in range(len(groups)):
            for example in tune:
                pending = [reader for reader in readers if example.qid not in done[(i, reader)]]
                for key, row in _rows_on_one_chain(programs, i, pending, example, metric):
                    logs[key].append(row)
                bar.update()
        bar.close()


def _rows_on_one_chain(programs: dict, group: int, readers: list[str], example: dspy.Example,
                       metric: Metric) -> list[tuple[tuple[int, str], dict]]:
    """Each reader's row on one chain; a chain that fails lets each setting answer (and fail) on its own."""
    if not readers:
        return []
    with usage_scope() as chain_usage:
        try:
            collected = programs[(group, readers[0])].collect(example.question)
        except Exception:  # recorded by run_one below, as a setting run on its own would record it
            collected = None
    if collected is None:
        return [((group, reader), run_one(programs[(group, reader)], example, [metric])) for reader in readers]
    rows = []
    for reader in readers:
        program = programs[(group, reader)]
        row = run_one(lambda question, program=program: program.read(question, collected), example, [metric])
        row["cost"] = added_cost(row["cost"], chain_usage.to_dict())
        row["shared_chain"] = True
        rows.append(((group, reader), row))
    return rows


def added_cost(a: dict, b: dict) -> dict:
    """Two costs summed field by field (nested ``computed`` too)."""
    out = dict(a)
    for name, value in b.items():
        if isinstance(value, dict):
            out[name] = added_cost(a.get(name) or {}, value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = round(a.get(name, 0) + value, 3) if isinstance(value, float) else a.get(name, 0) + value
    return out
