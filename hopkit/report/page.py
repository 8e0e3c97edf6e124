"""One self-contained report page for one or two run logs of the same questions."""

from __future__ import annotations

from pathlib import Path

from hopkit.report.assets import SCRIPT, STYLE
from hopkit.report.markup import percent, tag, text
from hopkit.report.traces import render_trace

METRICS = ("em", "f1", "cover_em", "recall@15")
STATUSES = ("correct", "wrong", "errored")


def status(row: dict) -> str:
    if row.get("error"):
        return "errored"
    return "correct" if (row.get("metrics") or {}).get("em", 0) >= 1 else "wrong"


def build_page(runs: list[tuple[str, list[dict]]], title: str = "hopkit run report") -> str:
    from hopkit.text.question_form import FORMS, question_form

    sections = [tag("h1", text(title)), _summary(runs)]
    label, rows = runs[0]
    forms = {row["qid"]: question_form(str(row.get("question", ""))) for row in rows}
    buttons = "".join(tag("button", text(value), data_kind="status", data_value=value)
                      for value in ("all", *STATUSES))
    buttons += " | " + "".join(tag("button", text(value), data_kind="form", data_value=value) for value in ("all", *FORMS))
    sections.append(tag("div", "Show: " + buttons + " " + tag("span", "", id="shown-count") + " shown",
                        class_="filters"))
    sections.append(tag("h2", "Questions of " + text(label)))
    body = "".join(_question_row(row, forms[row["qid"]]) for row in rows)
    header = tag("tr", "".join(tag("th", h) for h in ("question", "gold", "prediction", "citations", "metrics",
                                                      "cost", "trace")))
    sections.append(tag("table", header + body, id="questions"))
    if len(runs) > 1:
        sections.append(_side_by_side(runs[0], runs[1]))
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            f"script-src '{script_hash()}'\"><title>{text(title)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(sections)}<script>{SCRIPT}</script></body></html>")


def script_hash() -> str:
    """The page's own script is the only one the browser may run (Content-Security-Policy by hash)."""
    import base64
    import hashlib

    return "sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")


def _summary(runs: list[tuple[str, list[dict]]]) -> str:
    from hopkit.evaluation.paired import paired_bootstrap

    header = tag("tr", tag("th", "run") + tag("th", "n") + "".join(tag("th", m) for m in METRICS)
                 + tag("th", "LM calls/q") + tag("th", "s/q") + tag("th", "errors"))
    lines = []
    for label, rows in runs:
        cells = []
        for metric in METRICS:
            values = [(r.get("metrics") or {}).get(metric) for r in rows]
            values = [v for v in values if v is not None]
            if not values:
                cells.append(tag("td", "-"))
                continue
            mean, low, high = paired_bootstrap([0.0] * len(values), values, samples=2000)
            cells.append(tag("td", f"{percent(mean)} [{percent(low)}, {percent(high)}]"))
        n = max(len(rows), 1)
        calls = sum((r.get("cost") or {}).get("lm_calls", 0) for r in rows) / n
        seconds = sum((r.get("cost") or {}).get("seconds", 0) for r in rows) / n
        lines.append(tag("tr", tag("td", text(label)) + tag("td", str(len(rows))) + "".join(cells)
                         + tag("td", f"{calls:.2f}") + tag("td", f"{seconds:.1f}")
                         + tag("td", str(sum(1 for r in rows if r.get("error"))))))
    return tag("h2", "Summary (mean x 100, 95% bootstrap interval)") + tag("table", header + "".join(lines), id="summary")


def _question_row(row: dict, form: str) -> str:
    prediction = row.get("prediction") or {}
    gold = set(row.get("gold_pids") or [])
    citations = " ".join(tag("span", text(pid), class_="pid gold" if pid in gold else "pid")
                         for pid in prediction.get("citations") or [])
    metrics = ", ".join(f"{text(k)} {v:.2f}" for k, v in (row.get("metrics") or {}).items()
                        if isinstance(v, (int, float)))
    cost = row.get("cost") or {}
    cost_text = f"{cost.get('lm_calls', 0)} calls, {cost.get('seconds', 0):.1f} s"
    answer = text(prediction.get("answer", ""))
    if row.get("error"):
        answer += tag("div", "error: " + text(row["error"]), class_="muted")
    trace = tag("details", tag("summary", "trace") + render_trace(row.get("trace"), gold), class_="trace")
    state = status(row)
    return tag("tr", tag("td", text(row.get("question"))) + tag("td", text(", ".join(map(str, row.get("answers") or []))))
               + tag("td", answer) + tag("td", citations or "-") + tag("td", metrics) + tag("td", cost_text)
               + tag("td", trace), class_=f"question {state}", data_status=state, data_form=form,
               data_qid=row.get("qid"))


def _side_by_side(run_a: tuple[str, list[dict]], run_b: tuple[str, list[dict]]) -> str:
    (label_a, rows_a), (label_b, rows_b) = run_a, run_b
    by_qid = {r["qid"]: r for r in rows_b}
    lines = []
    for row in rows_a:
        other = by_qid.get(row["qid"])
        if other is None:
            continue
        ma, mb = row.get("metrics") or {}, other.get("metrics") or {}
        if ma.get("em") == mb.get("em") and ma.get("f1") == mb.get("f1"):
            continue
        lines.append(tag("tr", tag("td", text(row.get("question"))) + tag("td", text(", ".join(map(str, row.get("answers") or []))))
                         + tag("td", text((row.get("prediction") or {}).get("answer", "")) + f" (F1 {ma.get('f1', 0):.2f})")
                         + tag("td", text((other.get("prediction") or {}).get("answer", "")) + f" (F1 {mb.get('f1', 0):.2f})"),
                         class_="differs", data_qid=row.get("qid")))
    header = tag("tr", tag("th", "question") + tag("th", "gold") + tag("th", "A: " + text(label_a))
                 + tag("th", "B: " + text(label_b)))
    return (tag("h2", f"Where the two runs differ ({len(lines)} questions)")
            + tag("table", header + "".join(lines), id="side-by-side"))


def read_run(path: Path) -> list[dict]:
    """Each question's final row (hopkit.evaluation.run_log.final_rows), in log order."""
    from hopkit.evaluation.run_log import final_rows, parse_lines

    parsed, _ = parse_lines(Path(path).read_text(encoding="utf-8").splitlines())
    return final_rows([row for row in parsed if "qid" in row])
