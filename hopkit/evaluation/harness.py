"""Evaluate a program over examples: threads, per-question cost, resumable JSONL, progress bar."""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import dspy
from tqdm import tqdm

from hopkit.evaluation.metrics import Metric
from hopkit.evaluation.run_log import RunLog
from hopkit.evaluation.trace_stats import stats_of
from hopkit.lm.accounted import watching_calls
from hopkit.lm.usage import computed_cost, usage_scope

COST_FIELDS = ("lm_calls", "cache_hits", "prompt_tokens", "completion_tokens", "retrievals", "seconds")


@dataclass
class EvalReport:
    n: int
    metrics: dict[str, float]
    cost: dict[str, float]
    errors: Counter = field(default_factory=Counter)
    path: Path | None = None
    stats: dict[str, float] = field(default_factory=dict)  # means of the programs' own trace["stats"]


def score_row(example: dspy.Example, prediction: dspy.Prediction, metrics: Sequence[Metric]) -> dict[str, float]:
    return {m.name: round(float(m(example, prediction)), 4) for m in metrics}


def run_one(program: Callable[..., dspy.Prediction], example: dspy.Example, metrics: Sequence[Metric]) -> dict:
    """One question, never raising: a failure becomes an error row with zero scores."""
    row = {"qid": example.qid, "question": example.question, "answers": list(example.answers),
           "gold_pids": list(example.gold_pids)}
    with usage_scope() as usage, watching_calls():
        try:
            prediction = program(question=example.question)
            row["error"] = None
        except Exception as error:  # a malformed output or a failed LM call is data, not a crash
            usage.failed = True  # none of its answers is cached: a rerun asks again
            prediction = dspy.Prediction(answer="", citations=[], retrieved=[], trace={})
            row["error"] = {"type": type(error).__name__, "message": str(error)[:500],
                            "where": traceback.format_exc(limit=3)[-800:]}
    row["prediction"] = {"answer": prediction.answer, "citations": list(prediction.citations),
                         "retrieved": list(prediction.retrieved)}
    row["trace"] = prediction.trace
    row["metrics"] = score_row(example, prediction, metrics)
    row["cost"] = usage.to_dict()
    return row


def evaluate(program: Callable[..., dspy.Prediction], examples: Sequence[dspy.Example], metrics: Sequence[Metric],
             log: RunLog, threads: int = 1, progress: bool = True, wait_for_writer: bool = False) -> EvalReport:
    """Answer the examples the log has not, each row appended as it finishes. The log has one writer at a time
    (``RunLog.writing``): another process writing it is an error, or with ``wait_for_writer`` a wait, after which
    its rows count."""
    wanted = {ex.qid for ex in examples}
    if wanted - log.done_qids():  # else nothing to answer: read, with no writer's lock
        with log.writing(wait=wait_for_writer):
            _answer_pending(program, examples, metrics, log, threads, progress)
    return summarize([r for r in log.rows if r["qid"] in wanted], metrics, log.path)


def _answer_pending(program: Callable[..., dspy.Prediction], examples: Sequence[dspy.Example],
                    metrics: Sequence[Metric], log: RunLog, threads: int, progress: bool) -> None:
    """Each example the log has not answered, at most ``threads`` at a time, appended as it finishes."""
    done = log.done_qids()
    pending = [ex for ex in examples if ex.qid not in done]
    wanted = {ex.qid for ex in examples}
    bar = tqdm(total=len(examples), initial=len(examples) - len(pending), disable=not progress,
               desc="eval", unit="q", dynamic_ncols=True)
    lead = metrics[0].name if metrics else None
    scored = [r["metrics"][lead] for r in log.rows if r["qid"] in wanted] if lead else []
    lead_total, lead_count = sum(scored), len(scored)  # a running mean, not a rescan of the log per question
    threads = max(1, threads)
    queue = iter(pending)
    pool = ThreadPoolExecutor(max_workers=threads)
    running: set = set()

    def top_up() -> None:  # at most `threads` questions in flight: a kill starts nothing new
        while len(running) < threads and (example := next(queue, None)) is not None:
            running.add(pool.submit(run_one, program, example, metrics))

    try:
        top_up()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:  # written as each finishes: a kill loses nothing finished
                running.discard(future)
                row = future.result()
                log.append(row)
                bar.update(1)
                if lead:
                    lead_total, lead_count = lead_total + row["metrics"][lead], lead_count + 1
                    bar.set_postfix({lead: f"{lead_total / lead_count:.3f}"})
            top_up()
    except BaseException:  # Ctrl-C: questions not started yet are dropped, not run
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        bar.close()
    pool.shutdown()


def failed_questions_line(report: EvalReport) -> str:
    """One line for a run that recorded failed questions: how many, of which kinds, and how to retry them."""
    kinds = ", ".join(f"{kind}: {count}" for kind, count in report.errors.most_common())
    return (f"{sum(report.errors.values())} of {report.n} questions failed ({kinds}); run the same command again "
            f"to retry only those (they were not cached)")


def summarize(rows: list[dict], metrics: Sequence[Metric], path: Path | None = None) -> EvalReport:
    n = len(rows)
    mean = lambda values: sum(values) / n if n else 0.0  # noqa: E731
    scores = {m.name: mean([r["metrics"][m.name] for r in rows]) for m in metrics}
    stats = trace_stats(rows)
    costs = [{**r["cost"], **computed_cost(r["cost"])} for r in rows]  # tokens and seconds as computed
    cost = {name: mean([c.get(name, 0) for c in costs]) for name in (*COST_FIELDS, "uncosted_hits", "truncated")}
    errors = Counter(r["error"]["type"] for r in rows if r.get("error"))
    return EvalReport(n=n, metrics=scores, cost=cost, errors=errors, path=path, stats=stats)


def trace_stats(rows: list[dict]) -> dict[str, float]:
    """Mean per question of each number read from the programs' traces (rounds, SKC, ...; see
    hopkit/evaluation/trace_stats.py); a question that failed before reporting counts as zero."""
    per_row = [stats_of(row.get("trace")) for row in rows]
    names: dict[str, None] = {}
    for stats in per_row:
        names.update(dict.fromkeys(stats))
    if not rows:
        return {}
    return {name: sum(float(stats.get(name, 0)) for stats in per_row) / len(rows) for name in names}


def format_report(report: EvalReport, label: str) -> str:
    """The run's table; tokens and seconds are as computed (a rerun from the LM cache prints the first run's)."""
    head = ["run", "n", *report.metrics, "LM calls/q", "cached/q", "tok in/q", "tok out/q", "retrievals/q", "s/q",
            "errors"]
    cells = [label, str(report.n), *(f"{100 * v:.1f}" for v in report.metrics.values()),
             f"{report.cost['lm_calls']:.2f}", f"{report.cost['cache_hits']:.2f}",
             f"{report.cost['prompt_tokens']:.0f}", f"{report.cost['completion_tokens']:.0f}",
             f"{report.cost['retrievals']:.2f}",
             f"{report.cost['seconds']:.2f}", str(sum(report.errors.values()))]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), "| " + " | ".join(cells) + " |"]
    if report.cost.get("uncosted_hits"):
        lines.append(f"cost as computed; {report.cost['uncosted_hits'] * report.n:.0f} replayed LM calls predate the "
                     "cost ledger and count 0 tokens and 0 s")
    if report.cost.get("truncated"):
        cut = report.cost["truncated"] * report.n
        lines.append(f"LM outputs cut at max_tokens: {cut:.0f} of {report.cost['lm_calls'] * report.n:.0f} calls "
                     "(raise --max-tokens if a step needs the rest)")
    if report.stats:
        lines.append("per question: " + ", ".join(f"{k} {v:.2f}" for k, v in report.stats.items()))
    if report.errors:
        lines.append("errors by kind: " + ", ".join(f"{k}: {v}" for k, v in report.errors.most_common()))
    return "\n".join(lines)


def format_rows(rows: list[dict]) -> str:
    """One line per question: its scores and what it cost."""
    lines = []
    for row in rows:
        cost = {**row["cost"], **computed_cost(row["cost"])}
        scores = " ".join(f"{k}={v:.2f}" for k, v in row["metrics"].items())
        error = f" error={row['error']['type']}" if row.get("error") else ""
        lines.append(f"{row['qid']}: {scores} lm_calls={cost['lm_calls']} tok_in={cost['prompt_tokens']} "
                     f"tok_out={cost['completion_tokens']} retrievals={cost['retrievals']} "
                     f"s={cost['seconds']:.1f}{error}")
    return "\n".join(lines)
