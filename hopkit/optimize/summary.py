"""A study's summary (summary.json) as ``hopkit report STUDY`` prints it: the paper's setting beside the chosen one
on dev and test, paired, the guarded rule's verdict, and the test half's progress. The settings one by one are in
hopkit/optimize/setting_table.py, the choice rules over studies in choice_rules.py, the plots in plots.py; the
file itself is written by study_record.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hopkit.evaluation.harness import summarize
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.paired import read_rows

if TYPE_CHECKING:
    from hopkit.optimize.guarded_choice import GuardedChoice


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


HEADER = ("| study | demos | settings / trials | setting | dev | test | LM calls/q dev | LM calls/q test | knobs |\n"
          "|---|---|---|---|---|---|---|---|---|")


def read_summary(folder: Path) -> dict[str, Any]:
    return json.loads((Path(folder) / "summary.json").read_text(encoding="utf-8"))


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def _calls(summary: dict[str, Any], split: str, which: str) -> str:
    value = summary["lm_calls_per_question"].get(f"{split}_{which}")
    return "n/a" if value is None else f"{value:.2f}"


def _trials(summary: dict[str, Any]) -> str:
    """Distinct settings tried over all trials (repeats and failed trials included); older summaries
    recorded trials only."""
    settings = summary.get("settings")
    return f"{summary['trials']}" if settings is None else f"{settings} / {summary['trials']}"


def summary_rows(summary: dict[str, Any], folder: Path | None = None) -> str:
    """Two rows, the papers' setting and the best, then the study's cache hit rate, wall time and front.
    ``folder`` is where summary.json lies; the paired lines read the logs it names from there."""
    lines = [HEADER]
    for which, label in (("default", f"papers' (trial {summary['default_trial']})"),
                         ("best", f"best (trial {summary['best_trial']})")):
        knobs = summary["best_knobs"] if which == "best" else "-"
        lines.append(f"| {summary['study']} | {summary['demos']} | {_trials(summary)} | {label} | "
                     f"{_score(summary['dev'][which])} | {_score(summary['test'][which])} | "
                     f"{_calls(summary, 'dev', which)} | {_calls(summary, 'test', which)} | {knobs} |")
    lines.append(f"{summary['metric']} x 100 on {summary['dev_n']} dev / {summary['test_n']} test questions; "
                 f"LM cache hit rate over the trials {100 * summary['cache_hit_rate']:.1f}%; wall time "
                 f"{summary['seconds_all_runs'] / 3600:.2f} h over the runs that finished; answering time "
                 f"{summary.get('seconds_answering', 0.0) / 3600:.2f} h (every question of every trial and test run, "
                 "killed runs included)")
    for point in summary.get("pareto") or []:
        lines.append(f"  Pareto trial {point['number']}: {point['values']} {point['params']}")
    lines += paired_lines(summary, folder)
    guarded = choice_line(summary)
    if guarded:
        lines.append(guarded)
    if summary.get("questions_answered"):
        answered = summary["questions_answered"]
        who = "the trials and the unpruned check" if summary.get("pruning") else "the trials"
        lines.append(f"questions answered by {who}: {answered['questions']} ({answered['lm_hours']:.2f} LM hours "
                     f"as computed; pruner {summary.get('pruner', 'median')})")
    if summary.get("pruning"):
        p = summary["pruning"]
        lines.append(f"without pruning, the same trials: {p['questions_unpruned']} questions, "
                     f"{p['lm_hours_unpruned']:.2f} "
                     f"LM hours; pruning answered {100 * p['share_of_questions']:.0f}% of them and chose "
                     + ("the same setting" if p["same_setting"] else f"{p['chosen_pruned']} over "
                                                                     f"{p['chosen_unpruned']}"))
    cap = summary.get("call_cap")
    if cap:
        stopped = "; ".join(f"trial {t['number']} at {t['calls']:.1f} {t['params']}" for t in cap["stopped"]) or "none"
        lines.append(f"stopped over the cap of {cap['max_calls_per_question']:g} LM calls a question: {stopped}")
    for point in summary.get("cost_front") or []:
        lines.append(f"  cost front: trial {point['number']} {summary['metric']} {100 * point['metric']:.1f} at "
                     f"{point['calls']:.2f} LM calls/q {point['params']}")
    return "\n".join(lines)


def study_log(summary: dict[str, Any], key: str, folder: Path | None) -> Path | None:
    """A log the summary names, read relative to the study folder: summaries record paths relative to
    it, and older ones absolute paths from the machine that ran the study, found here by their tail."""
    recorded = (summary.get("logs") or {}).get(key)
    if not recorded:
        return None
    path = Path(recorded)
    if not path.is_absolute():
        return archived((folder or Path(".")) / path)
    if path.is_file() or folder is None:
        return path
    parts = path.parts
    last = max((i for i, part in enumerate(parts) if part == folder.name), default=len(parts) - 3)
    return archived(folder.joinpath(*parts[last + 1:]))  # without the folder's name: the log's own folder and file


def archived(path: Path) -> Path:
    """The log, or its gzipped archive (``LOG.jsonl.gz``) where a finished study keeps only that."""
    gz = path.with_name(path.name + ".gz")
    return gz if not path.is_file() and gz.is_file() else path


def paired_lines(summary: dict[str, Any], folder: Path | None = None) -> list[str]:
    """The chosen setting against trial 0 on dev and on test, paired over the same questions, then what
    the guarded choice (hopkit/optimize/guarded_choice.py) would have kept."""
    from hopkit.evaluation.paired import compare_runs, read_rows

    lines, rows = [], {}
    if summary.get("best_trial") is not None and summary["best_trial"] == summary.get("default_trial"):
        return [f"the study chose the paper's setting ({_paper(summary)}): chosen and paper's are one setting, "
                "so there is no pair to compare"]  # by the top dev score, or kept by the guarded rule (its own line)
    for split in ("dev", "test"):
        default, best = study_log(summary, f"{split}_default", folder), study_log(summary, f"{split}_best", folder)
        if default is None or best is None:
            continue
        missing = [str(p) for p in (default, best) if not p.is_file()]
        if missing:
            lines.append(f"{split}: no paired line; the log {missing[0]} is not there (copy the study folder whole)")
            continue
        rows[split] = (read_rows(default), read_rows(best))
        result = compare_runs(*rows[split], [summary["metric"]])
        d = result.differences[0]
        mark = " *" if d.significant else ""
        lines.append(f"{split}: chosen (trial {summary['best_trial']}) - {_paper(summary)}, paired over {result.n} "
                     f"questions: {100 * d.mean_b:.1f} - {100 * d.mean_a:.1f} = {100 * d.diff:+.1f}{mark} "
                     f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}]")
    if "dev" in rows and summary.get("settings") and summary["best_trial"] != summary["default_trial"]:
        lines.append(guarded_line(summary, *rows["dev"]))
    return lines


def guarded_verdict(summary: dict[str, Any], dev_default: dict[str, dict],
                    dev_best: dict[str, dict]) -> GuardedChoice:
    """The guarded choice (hopkit/optimize/guarded_choice.py) between a study's paper's setting and its best,
    from their dev logs' rows by qid."""
    from hopkit.evaluation.metrics import get_metric
    from hopkit.optimize.guarded_choice import guarded_choice_of_rows

    return guarded_choice_of_rows(dev_default.values(), dev_best.values(), summary["metric"], summary["settings"],
                                  get_metric(summary["metric"]).higher_is_better)


def guarded_line(summary: dict[str, Any], dev_default: dict[str, dict], dev_best: dict[str, dict]) -> str:
    choice = guarded_verdict(summary, dev_default, dev_best)
    kept = f"trial {summary['best_trial']}" if choice.takes_best else _paper(summary)
    test = summary["test"]["best" if choice.takes_best else "default"]
    return f"guarded choice: {_interval(choice.to_dict(), summary)}; it keeps {kept}" + (
        f", test {_score(test)}" if test is not None else "")


def _paper(summary: dict[str, Any]) -> str:
    """Trial 0 is the paper's setting; a retried trial 0 (killed, then rerun with its knobs) has a later number."""
    return f"trial {summary['default_trial']}"


def _interval(choice: dict[str, Any], summary: dict[str, Any]) -> str:
    return (f"dev interval corrected for {choice['comparisons']} settings against {_paper(summary)} "
            f"({100 * choice['level']:.1f}%): {100 * choice['diff']:+.1f} [{100 * choice['low']:+.1f}, "
            f"{100 * choice['high']:+.1f}]")


def choice_line(summary: dict[str, Any]) -> str | None:
    """How a study run with ``choose = "guarded"`` chose, when the rule overrode the best dev score."""
    choice = summary.get("choice")
    if not choice or choice.get("rule") != "guarded" or choice["takes_best"]:
        return None
    return (f"chosen by the guarded rule: the best on dev was trial {choice['dev_best_trial']}, "
            f"{_interval(choice, summary)}; {_paper(summary)} kept, so only it was scored on test")
