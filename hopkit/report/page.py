"""One self-contained report page for one or more run logs of the same questions.

Each run's summary is in its task's metrics; every run after the first also gets the paired difference of each
metric against the first. Each question is one row with every run's answer, metrics, cost and trace side by side,
and a list of the questions where the runs disagree links to both traces.
"""

from __future__ import annotations

from pathlib import Path

from hopkit.report.assets import SCRIPT, STYLE
from hopkit.report.runs import ReportRun, as_run, check_shared
from hopkit.report.traces import Passages, citation, render_trace
from hopkit.text.markup import percent, tag, text

STATUSES = ("correct", "wrong", "graded", "errored")
SAMPLES = 10_000  # the same bootstrap as `hopkit compare`, so their figures agree to the last digit


def build_page(runs: list, title: str = "hopkit run report", passages: Passages | None = None,
               note: str = "") -> str:
    from hopkit.text.question_form import FORMS, question_form

    runs = [as_run(run) for run in runs]
    check_shared(runs)
    passages = passages or {}
    first = runs[0]
    sections = [tag("h1", text(title)), _settings(runs), _summary(runs)]
    if len(runs) > 1:
        sections.append(_paired(runs))
    forms = {row["qid"]: question_form(str(row.get("question", ""))) for row in first.rows}
    statuses = [s for s in STATUSES if any(first.status(row) == s for row in first.rows)]
    buttons = "".join(tag("button", text(value), data_kind="status", data_value=value)
                      for value in ("all", *statuses))
    buttons += " | " + "".join(tag("button", text(value), data_kind="form", data_value=value)
                               for value in ("all", *FORMS))
    sections.append(tag("div", f"Show ({text(first.label)}'s {text(first.task.right_metric or 'grade')}): " + buttons
                        + " " + tag("span", "", id="shown-count") + " shown", class_="filters"))
    if note:
        sections.append(tag("p", text(note), class_="muted"))
    if len(runs) > 1:
        sections.append(_disagreements(runs))
    sections.append(tag("h2", "Questions"))
    others = [{row["qid"]: row for row in run.rows} for run in runs]
    body = "".join(_question_row(index, row, forms[row["qid"]], runs, others, passages)
                   for index, row in enumerate(first.rows))
    header = tag("tr", tag("th", "question") + tag("th", "gold") + "".join(
        tag("th", text(run.label)) for run in runs))
    sections.append(tag("table", header + body, id="questions"))
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            f"script-src '{script_hash()}'\"><title>{text(title)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(sections)}<script>{SCRIPT}</script></body></html>")


def script_hash() -> str:
    """The page's own script is the only one the browser may run (Content-Security-Policy by hash)."""
    import base64
    import hashlib

    return "sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")


def _settings(runs: list[ReportRun]) -> str:
    """Each run's settings, from its log's metadata, so two runs are told apart by more than their file names."""
    from hopkit.report.runs import setting_cells

    cells = [setting_cells(run.settings) for run in runs]
    names = list(cells[0])
    header = tag("tr", tag("th", "run") + "".join(tag("th", text(name)) for name in names))
    lines = [tag("tr", tag("td", text(run.label)) + "".join(tag("td", text(row[name])) for name in names))
             for run, row in zip(runs, cells)]
    return tag("h2", "Runs") + tag("table", header + "".join(lines), id="settings")


def _summary(runs: list[ReportRun]) -> str:
    from hopkit.evaluation.paired import paired_bootstrap
    from hopkit.lm.usage import computed_cost

    names = runs[0].metrics
    header = tag("tr", tag("th", "run") + tag("th", "task") + tag("th", "n")
                 + "".join(tag("th", text(m)) for m in names)
                 + tag("th", "LM calls/q") + tag("th", "tok in/q") + tag("th", "s/q") + tag("th", "cache hits/q")
                 + tag("th", "errors"))
    lines = []
    for run in runs:
        cells = []
        for metric in names:
            values = [float(v) for r in run.rows if (v := (r.get("metrics") or {}).get(metric)) is not None]
            if not values:
                cells.append(tag("td", "-"))
                continue
            mean, low, high = paired_bootstrap([0.0] * len(values), values, samples=SAMPLES)
            cells.append(tag("td", f"{percent(mean)} [{percent(low)}, {percent(high)}]", class_="num"))
        n = max(len(run.rows), 1)
        costs = [computed_cost(r.get("cost") or {}) for r in run.rows]
        cost_cells = "".join(tag("td", f"{sum(c[key] for c in costs) / n:.{digits}f}", class_="num")
                             for key, digits in (("lm_calls", 2), ("prompt_tokens", 0), ("seconds", 1),
                                                 ("cache_hits", 2)))
        lines.append(tag("tr", tag("td", text(run.label)) + tag("td", text(run.task.name))
                         + tag("td", str(len(run.rows)))
                         + "".join(cells) + cost_cells
                         + tag("td", str(sum(1 for r in run.rows if r.get("error"))))))
    uncosted = [run.label for run in runs if any(computed_cost(r.get("cost") or {})["uncosted_hits"] for r in run.rows)]
    note = tag("p", "Replayed LM calls logged before costs were kept count 0 tokens and 0 s in: "
               + text(", ".join(uncosted)), class_="muted") if uncosted else ""
    return (tag("h2", "Summary (mean x 100, 95% bootstrap interval; cost as computed, cache hits apart)")
            + tag("table", header + "".join(lines), id="summary") + note)


def _paired(runs: list[ReportRun]) -> str:
    from hopkit.evaluation.paired import compare_runs

    first = {row["qid"]: row for row in runs[0].rows}
    names = runs[0].metrics
    lines = []
    for run in runs[1:]:
        rows = {row["qid"]: row for row in run.rows}
        shared = [m for m in names if all(m in (r.get("metrics") or {}) for r in rows.values())]
        result = compare_runs(first, rows, shared, samples=SAMPLES)
        cells = {d.metric: tag("td", f"{100 * d.diff:+.1f}{' *' if d.significant else ''} "
                                     f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}]", class_="num")
                 for d in result.differences}
        lines.append(tag("tr", tag("td", text(run.label)) + tag("td", str(result.n))
                         + "".join(cells.get(m, tag("td", "-")) for m in names)))
    header = tag("tr", tag("th", "run") + tag("th", "shared n") + "".join(tag("th", text(m)) for m in names))
    return (tag("h2", f"Paired difference against {text(runs[0].label)} (x 100, 95% paired bootstrap; "
                      "* the interval excludes 0)") + tag("table", header + "".join(lines), id="paired"))


def _lead(run: ReportRun) -> str:
    return run.task.right_metric or run.metrics[0]


def _disagreements(runs: list[ReportRun]) -> str:
    first = runs[0]
    lead = _lead(first)
    by_run = [{row["qid"]: row for row in run.rows} for run in runs]
    items = []
    for index, row in enumerate(first.rows):
        scores = [(r.get("metrics") or {}).get(lead) if (r := rows.get(row["qid"])) else None for rows in by_run]
        if len({s for s in scores if s is not None}) <= 1:
            continue
        answers = [tag("td", (text((rows[row["qid"]].get("prediction") or {}).get("answer", "")) +
                              f" ({lead} {score:.2f}) " + tag("a", "trace", href=f"#t-{index}-{k}", class_="to-trace"))
                       if score is not None else "-", class_=_state(runs[k], rows.get(row["qid"])))
                   for k, (rows, score) in enumerate(zip(by_run, scores))]
        items.append(tag("tr", tag("td", text(row.get("question"))) + tag("td", _gold(row)) + "".join(answers),
                         class_="differs", data_qid=row["qid"]))
    header = tag("tr", tag("th", "question") + tag("th", "gold") + "".join(tag("th", text(r.label)) for r in runs))
    return (tag("h2", f"Where the runs disagree on {text(lead)} ({len(items)} questions)")
            + tag("table", header + "".join(items), id="side-by-side"))


def _state(run: ReportRun, row: dict | None) -> str:
    return "run-cell " + (run.status(row) if row else "absent")


def _gold(row: dict) -> str:
    return text(", ".join(map(str, row.get("answers") or [])))


def _question_row(index: int, row: dict, form: str, runs: list[ReportRun], by_run: list[dict],
                  passages: Passages) -> str:
    state = runs[0].status(row)
    cells = "".join(_run_cell(index, k, run, by_run[k].get(row["qid"]), passages) for k, run in enumerate(runs))
    return tag("tr", tag("td", text(row.get("question"))) + tag("td", _gold(row)) + cells,
               class_=f"question {state}", data_status=state, data_form=form, data_qid=row.get("qid"))


def _run_cell(index: int, k: int, run: ReportRun, row: dict | None, passages: Passages) -> str:
    from hopkit.lm.usage import computed_cost

    if row is None:
        return tag("td", tag("span", "not in this run", class_="muted"), class_="run-cell absent")
    prediction = row.get("prediction") or {}
    gold = set(row.get("gold_pids") or [])
    answer = tag("div", text(prediction.get("answer", "")), class_="answer")
    if row.get("error"):
        answer += tag("div", "error: " + text(row["error"]), class_="muted")
    metrics = "".join(tag("span", f"{text(m)} {float(v):.2f}", class_="metric") for m, v in
                      ((m, (row.get("metrics") or {}).get(m)) for m in run.metrics) if isinstance(v, (int, float)))
    cost = computed_cost(row.get("cost") or {})
    replayed = f", {cost['cache_hits']} from the cache" if cost["cache_hits"] else ""
    if cost["uncosted_hits"]:
        replayed += f" ({cost['uncosted_hits']} replayed from before costs were kept count 0)"
    cut = f", {cost['truncated']} cut at max_tokens" if cost["truncated"] else ""
    cost_text = (f"{cost['lm_calls']} calls{cut}, {cost['prompt_tokens']} tok in, {cost['seconds']:.1f} s as "
                 f"computed{replayed}")
    cited = " ".join(citation(pid, gold, passages) for pid in prediction.get("citations") or [])
    trace = tag("details", tag("summary", "trace") + render_trace(row.get("trace"), gold, passages),
                class_="trace", id=f"t-{index}-{k}")
    return tag("td", answer + tag("div", metrics, class_="metrics") + tag("div", text(cost_text), class_="cost muted")
               + (tag("div", "cited: " + cited, class_="citations") if cited else "") + trace,
               class_=_state(run, row))


def read_run(path: Path) -> list[dict]:
    """Each question's final row (hopkit.evaluation.run_log.final_rows), in log order; a file that is not a run
    log is refused."""
    from hopkit.evaluation.paired import read_rows

    return list(read_rows(path).values())
