"""``hopkit bench-turns``: what CPU turns (hopkit/lm/cpu_turns.py) buy when two processes call the local LM at once.

Three modes, each in fresh processes with the same calls: one process alone; two processes side by side with turns
off; two with turns on. Every call evaluates its whole prompt (no prefix reuse), so a mode's seconds are its calls'
work plus what the processes cost each other. The figure is the calls a second of each mode against one process
alone; run it on idle cores.
"""

from __future__ import annotations

import multiprocessing
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

MODES = ("alone", "side by side", "turns")


@dataclass(frozen=True)
class TurnsMode:
    mode: str
    processes: int
    calls: int  # over all its processes
    seconds: float  # from the first process's first call to the last one's end
    waited: float  # seconds calls spent waiting for a turn, over all processes

    @property
    def calls_per_second(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "calls_per_second": round(self.calls_per_second, 4)}


def _prompt(index: int, words: int) -> str:
    facts = " ".join(f"Fact {index}.{i}: the river town of Elmor held its market on day {i + index}." for i in
                     range(words // 12 + 1))
    return f"{facts}\nQuestion {index}: on which day did Elmor hold its first market? Answer in a few words."


def _worker(model_path: str, calls: int, turns: bool, turn_file: str, words: int, start_at: float,
            results: Any) -> None:
    import os

    from dspy.lm15 import Config, Message, Request

    from hopkit.lm.llama_engine import LlamaCppEngine

    os.environ["HOPKIT_CPU_TURNS_FILE"] = turn_file  # this benchmark's own lock, apart from other hopkit runs
    engine = LlamaCppEngine(model_path, n_ctx=4096, reuse_context=False, prefix_cache_bytes=0, cpu_turns=turns)
    engine.load()
    time.sleep(max(0.0, start_at - time.time()))  # every process of a mode starts its calls together
    first = time.time()
    for index in range(calls):
        engine.complete(Request(model="local", messages=(Message.user(_prompt(index, words)),),
                                config=Config(max_tokens=16, temperature=0.0)))
    results.put((first, time.time(), engine.turns.waited if engine.turns else 0.0))


def run_mode(mode: str, model_path: Path, calls: int, words: int = 300, load_seconds: float = 30.0) -> TurnsMode:
    """``calls`` calls in each process of ``mode``; the processes load their models, then start together."""
    processes = 1 if mode == "alone" else 2
    context = multiprocessing.get_context("spawn")  # a fresh interpreter each, as two hopkit commands would be
    results = context.Queue()
    with tempfile.TemporaryDirectory() as folder:
        start_at = time.time() + load_seconds
        workers = [context.Process(target=_worker, args=(str(model_path), calls, mode == "turns",
                                                         str(Path(folder) / "turns.lock"), words, start_at, results))
                   for _ in range(processes)]
        for worker in workers:
            worker.start()
        ends = [results.get() for _ in workers]
        for worker in workers:
            worker.join()
    if any(first < start_at - 1.0 for first, _, _ in ends):
        raise RuntimeError(f"a process took more than {load_seconds:.0f} s to load the model; raise --load-seconds")
    return TurnsMode(mode, processes, calls * processes, round(max(e[1] for e in ends) - min(e[0] for e in ends), 2),
                     round(sum(e[2] for e in ends), 2))


def format_turns(results: list[TurnsMode]) -> str:
    alone = next((r for r in results if r.mode == "alone"), None)
    lines = ["| mode | processes | calls | seconds | calls / s | against one alone | waited for a turn, s |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        ratio = f"{r.calls_per_second / alone.calls_per_second:.2f}" if alone and alone.calls_per_second else "-"
        lines.append(f"| {r.mode} | {r.processes} | {r.calls} | {r.seconds:.1f} | {r.calls_per_second:.3f} | "
                     f"{ratio} | {r.waited:.1f} |")
    return "\n".join(lines)
