"""How far a study's test half has got while it runs: the rows each test log (``test/best-N.jsonl``,
``test/default-N.jsonl``) holds so far, with their running metric and LM calls a question. A study scores its test
half only after it has chosen, so until ``summary.json`` exists this is the one place the test half shows."""

from __future__ import annotations

import re
from pathlib import Path

from hopkit.evaluation.harness import summarize
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.paired import read_rows

_LOG_NAME = re.compile(r"^(best|default)-(\d+)\.jsonl$")
_ROLE = {"best": "the chosen setting", "default": "the paper's setting"}


def progress_on_test(folder: Path, metric: str) -> str | None:
    """One line a test log begun so far, the chosen setting's first (it is scored first); None before any."""
    logs = sorted(((match.group(1), int(match.group(2)), path)
                   for path in (Path(folder) / "test").glob("*.jsonl") if (match := _LOG_NAME.match(path.name))),
                  key=lambda log: (log[0] != "best", log[1]))
    lines = []
    for kind, trial, path in logs:
        if not path.stat().st_size:
            continue  # opened, nothing answered yet
        report = summarize(list(read_rows(path).values()), [get_metric(metric)])  # as `hopkit report LOG` reads it
        lines.append(f"  {_ROLE[kind]} (trial {trial}, {path.relative_to(folder)}): {report.n} questions so far, "
                     f"{metric} {100 * report.metrics[metric]:.1f}, {report.cost['lm_calls']:.2f} LM calls/q")
    if not lines:
        return None
    return "test half so far (running figures, not a result until both settings finish):\n" + "\n".join(lines)
