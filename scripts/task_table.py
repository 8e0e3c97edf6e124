"""One bundled task's results table from scripts/tasks_queue.sh's logs (issue 23): the task's metrics with
95% bootstrap intervals, LM calls, tokens and seconds per question, errors, and each run's commit.

    python scripts/task_table.py long-form [--runs docs/runs/tasks]

A row's commit is the one its run started at (docs/runs/tasks/queue-status); a resumed run lists each; a run
stopped and begun again (its log set aside) lists the commits since.
Cached LM calls report no tokens or seconds, so a run that reused calls shows its cache hits per question.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from statistics import mean

from hopkit.evaluation.paired import paired_bootstrap
from hopkit.report.page import read_run

METHODS = ("nor", "oner", "searchain", "ircot", "tor")
LABELS = {"nor": "NoR", "oner": "OneR", "searchain": "SearChain", "ircot": "IRCoT", "tor": "ToR"}


def commits(status: Path, name: str) -> list[str]:
    if not status.exists():
        return []
    found: list[str] = []
    for line in status.read_text().splitlines():
        if line.startswith(f"stopped {name} "):  # its log was set aside and the run began again
            found = []
        elif line.startswith(f"start {name} "):
            found.append(line.split()[3])  # start NAME TIME COMMIT [note]
    return list(dict.fromkeys(found))


def table(task: str, runs: Path) -> str:
    head = None
    lines = []
    for method in METHODS:
        log = runs / f"{task}-{method}.jsonl"
        if not log.exists():
            continue
        rows = read_run(log)
        metrics = [m for m in rows[0]["metrics"] if m != "recall@15"] + ["recall@15"]
        if head is None:
            head = ["method", "n", *metrics, "LM calls/q", "cached/q", "tok in/q", "tok out/q", "s/q", "errors", "commit"]
        cells = [LABELS[method], str(len(rows))]
        for metric in metrics:
            values = [float(r["metrics"].get(metric, 0.0)) for r in rows]
            average, low, high = paired_bootstrap([0.0] * len(values), values)  # the mean and its interval
            cells.append(f"{100 * average:.1f} [{100 * low:.1f}, {100 * high:.1f}]")
        cost = [r.get("cost") or {} for r in rows]
        for key, digits in (("lm_calls", 2), ("cache_hits", 2), ("prompt_tokens", 0), ("completion_tokens", 0),
                            ("seconds", 1)):
            cells.append(f"{mean(float(c.get(key, 0) or 0) for c in cost):.{digits}f}")
        cells.append(str(sum(1 for r in rows if r.get("error"))))
        cells.append(", ".join(commits(runs / "queue-status", f"{task}-{method}")) or "-")
        lines.append("| " + " | ".join(cells) + " |")
    if head is None:
        raise SystemExit(f"no logs for task {task!r} under {runs}")
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *lines])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", help="fact-check | slot-filling | yes-no | long-form")
    parser.add_argument("--runs", type=Path, default=Path("docs/runs/tasks"))
    args = parser.parse_args()
    print(table(args.task, args.runs))


if __name__ == "__main__":
    main()
