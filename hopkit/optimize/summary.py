"""A study's tables: its summary (summary.json) beside the papers' setting, its settings one by one, the test half's
progress, the choice rules compared over studies, and the plots and cost front saved beside them.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import optuna
from optuna.trial import TrialState

from hopkit.errors import InputError
from hopkit.evaluation.harness import summarize
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.paired import read_rows
from hopkit.lm.usage import computed_cost
from hopkit.optimize.objective import setting_log_name
from hopkit.optimize.study import setting_logs

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


def save_plots(study: optuna.Study, folder: Path, metric_name: str, objective_names: list[str]) -> dict[str, str]:
    """Writes what the study supports; returns {plot: path or the reason it was skipped}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from optuna.visualization import matplotlib as vis

    folder.mkdir(parents=True, exist_ok=True)
    multi = len(study.directions) > 1
    target = (lambda t: t.values[0]) if multi else None
    plots = {
        "history": lambda: vis.plot_optimization_history(study, target=target, target_name=metric_name),
        "importances": lambda: vis.plot_param_importances(study, target=target, target_name=metric_name),
    }
    if multi:
        plots["pareto"] = lambda: vis.plot_pareto_front(study, target_names=objective_names)
    written = {}
    for name, draw in plots.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # optuna marks its matplotlib backend experimental
                axes = draw()
            drawn: Any = axes  # one Axes, or optuna's array of them
            figure = drawn.figure if hasattr(drawn, "figure") else drawn.flat[0].figure
            path = folder / f"{name}.png"
            figure.savefig(path, dpi=110, bbox_inches="tight")
            plt.close(figure)
            written[name] = str(path)
        except (ValueError, RuntimeError, ZeroDivisionError) as error:  # e.g. too few finished trials
            written[name] = f"skipped: {error}"
    return written


def cost_front(study: optuna.Study) -> list[dict[str, Any]]:
    """Completed trials as {number, params, metric, calls, front}, a repeated setting once."""
    points: dict[str, dict[str, Any]] = {}
    for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        key = repr(sorted(trial.params.items()))
        if key not in points and "lm_calls_per_q" in trial.user_attrs:
            points[key] = {"number": trial.number, "params": trial.params, "metric": trial.values[0],
                           "calls": float(trial.user_attrs["lm_calls_per_q"])}
    rows = list(points.values())
    for point in rows:
        point["front"] = not any(o["metric"] >= point["metric"] and o["calls"] <= point["calls"]
                                 and (o["metric"] > point["metric"] or o["calls"] < point["calls"]) for o in rows)
    return sorted(rows, key=lambda p: (p["calls"], -p["metric"]))


def plot_cost_front(points: list[dict[str, Any]], path: Path, metric: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 4))
    others = [p for p in points if not p["front"]]
    front = [p for p in points if p["front"]]
    axes.scatter([p["calls"] for p in others], [100 * p["metric"] for p in others], color="#999999", label="settings")
    axes.plot([p["calls"] for p in front], [100 * p["metric"] for p in front], "o-", color="#c44e52",
              label="Pareto front")
    for point in points:
        axes.annotate(str(point["number"]), (point["calls"], 100 * point["metric"]), fontsize=7,
                      xytext=(3, 3), textcoords="offset points")
    axes.set_xlabel("LM calls per question (dev)")
    axes.set_ylabel(f"{metric} x 100 (dev)")
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return str(path)


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


@dataclass(frozen=True)
class SettingRow:
    knobs: dict[str, Any]
    questions: int
    metric: float  # mean over the questions this setting answered
    paper_same: float | None  # the paper's setting's mean over those questions; None without its log
    differ: int | None  # of those questions, how many answers differ from the paper's setting's
    calls: float  # LM calls a question
    seconds: float  # seconds a question, as computed
    is_paper: bool
    over_cap: bool = False  # stopped by --max-calls-per-question, not by the pruner


def _answer(row: dict) -> str:
    return " ".join(str((row.get("prediction") or {}).get("answer", "")).lower().split())


def _row_score(row: dict, metric: str) -> float:
    return float((row.get("metrics") or {}).get(metric, 0.0) or 0.0)


def _answered(folder: Path) -> list[tuple[dict[str, Any], Path]]:
    """(meta, dev log) of each setting that has answered at least one question."""
    return [(meta, log) for meta, log in setting_logs(Path(folder) / "settings") if log.is_file()
            and log.stat().st_size]


def setting_rows(folder: Path, paper_knobs: dict[str, Any] | None, metric: str,
                 capped: Sequence[dict[str, Any]] = ()) -> list[SettingRow]:
    """One row a setting: the paper's first, then the others by how far they got before pruning, then by metric.
    ``capped``: the knobs of the settings the LM-call cap stopped."""
    answered = _answered(folder)
    logs = [(meta["knobs"], read_rows(log)) for meta, log in answered]
    # a capped setting is found by its log's name: its metadata drops a knob at its profile value
    demos = {meta.get("demos") for meta, _ in answered}
    capped_logs = {setting_log_name(knobs, key) for knobs in capped for key in demos}
    over_cap = [log.name in capped_logs for _, log in answered]
    paper = next((rows for knobs, rows in logs if paper_knobs is not None and knobs == paper_knobs), None) or {}
    table = []
    for (knobs, rows), stopped in zip(logs, over_cap):
        n = len(rows)
        shared = [qid for qid in rows if qid in paper]
        table.append(SettingRow(
            knobs=knobs, questions=n, metric=sum(_row_score(r, metric) for r in rows.values()) / n,
            paper_same=sum(_row_score(paper[q], metric) for q in shared) / len(shared) if shared else None,
            differ=sum(_answer(rows[q]) != _answer(paper[q]) for q in shared) if shared else None,
            calls=sum(computed_cost(r.get("cost") or {})["lm_calls"] for r in rows.values()) / n,
            seconds=sum(computed_cost(r.get("cost") or {})["seconds"] for r in rows.values()) / n,
            is_paper=paper_knobs is not None and knobs == paper_knobs, over_cap=stopped))
    return sorted(table, key=lambda row: (not row.is_paper, -row.questions, -row.metric))  # furthest first


def paper_knobs_of(summary: dict[str, Any], folder: Path) -> dict[str, Any] | None:
    """The paper's setting's knobs, from the meta beside the dev log the summary names for it."""

    log = study_log(summary, "dev_default", folder)
    meta = None if log is None else log.with_name(log.name[:-len(".jsonl")] + ".meta.json")
    return json.loads(meta.read_text(encoding="utf-8"))["knobs"] if meta is not None and meta.is_file() else None


def study_settings_table(summary: dict[str, Any], folder: Path) -> str | None:
    """``hopkit report STUDY_DIR``'s table of every setting tried on dev; None for a folder without setting logs."""
    capped = [t["params"] for t in (summary.get("call_cap") or {}).get("stopped", [])]
    rows = setting_rows(folder, paper_knobs_of(summary, folder), summary["metric"], capped)
    if not rows:
        return None
    return (f"every setting tried on dev ({summary['metric']} x 100 over the questions each answered; a pruned "
            "setting answered fewer; calls and seconds a question as computed):\n"
            + settings_table(rows, summary["metric"]))


def running_study_table(folder: Path) -> str | None:
    """A study still tuning (no summary.json yet): the settings so far, the paper's knobs read from the folder's
    own SQLite storage when it has one (trial 0 is queued with them). None for a folder without setting logs."""
    folder = Path(folder)
    answered = _answered(folder)
    if not answered:
        return None
    metric = answered[0][0].get("metric", "f1")

    knobs, capped = _paper_and_capped_in_storage(folder / "study.db")
    test = progress_on_test(folder, metric)
    return (f"{folder.name}: no summary.json yet, so the study is still tuning (or was stopped); the settings its dev "
            f"logs hold so far ({metric} x 100 over the questions each answered"
            + ("" if knobs is not None else "; no study.db here to name the paper's setting") + "):\n"
            + settings_table(setting_rows(folder, knobs, metric, capped), metric)
            + ("" if test is None else "\n" + test))


def _paper_and_capped_in_storage(db: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The paper's knobs (None without a storage) and the knobs of the settings the LM-call cap stopped."""
    if not db.is_file():
        return None, []
    import optuna

    from hopkit.optimize.objective import capped_trials

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = f"sqlite:///{db}"
    paper, capped = None, []
    for summary in optuna.get_all_study_summaries(storage):
        study = optuna.load_study(study_name=summary.study_name, storage=storage)
        capped += [t["params"] for t in capped_trials(study)]
        for trial in study.get_trials(deepcopy=False):
            knobs = trial.params or trial.system_attrs.get("fixed_params")  # enqueued, not yet sampled
            if paper is None and trial.user_attrs.get("paper_defaults") and knobs:
                paper = dict(knobs)
    return paper, capped


def settings_table(rows: list[SettingRow], metric: str) -> str:
    """The rows as a markdown table, knobs as columns; the metric x 100."""
    names = sorted({name for row in rows for name in row.knobs})
    lines = ["| setting | " + " | ".join(names) + f" | questions | {metric} | paper's, same questions | "
             "answers that differ | LM calls/q | s/q |", "|" + "---|" * (len(names) + 7)]
    for row in rows:
        knobs = " | ".join(_knob(row.knobs.get(name)) for name in names)
        same = "-" if row.paper_same is None else f"{100 * row.paper_same:.1f}"
        differ = "-" if row.differ is None else str(row.differ)
        label = "paper" if row.is_paper else "over the call cap" if row.over_cap else "tried"
        lines.append(f"| {label} | {knobs} | {row.questions} | {100 * row.metric:.1f} | "
                     f"{same} | {differ} | {row.calls:.2f} | {row.seconds:.0f} |")
    return "\n".join(lines)


def _knob(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return "-" if value is None else str(value)


@dataclass(frozen=True)
class StudyChoices:
    """One study's test scores per question for the paper's setting, the best dev score and the guarded rule."""

    study: str
    guarded_takes_best: bool
    one_setting: bool  # the best dev score was the paper's setting's: both rules keep it
    paper: dict[str, float]  # qid -> test score
    best: dict[str, float]

    @property
    def guarded(self) -> dict[str, float]:
        return self.best if self.guarded_takes_best else self.paper


def study_choices(summary: dict[str, Any], folder: Path) -> StudyChoices | str:
    """The study's choices scored on test, or a line saying why it cannot be pooled."""
    from hopkit.evaluation.paired import read_rows

    name, metric = summary["study"], summary["metric"]
    keys = ("dev_default", "dev_best", "test_default", "test_best")
    logs = {key: path for key in keys if (path := study_log(summary, key, folder)) is not None and path.is_file()}
    missing = [key for key in keys if key not in logs]
    if missing:
        return (f"{name}: left out, its {missing[0].replace('_', ' ')} log is not there (a study run with "
                "choose = guarded that kept trial 0 scores only it on test; or copy the study folder whole)")
    one_setting = summary["best_trial"] == summary["default_trial"]
    takes_best = one_setting or guarded_verdict(summary, read_rows(logs["dev_default"]),
                                                read_rows(logs["dev_best"])).takes_best
    paper, best = read_rows(logs["test_default"]), read_rows(logs["test_best"])
    shared = [qid for qid in paper if qid in best]
    return StudyChoices(name, takes_best, one_setting, {q: paper[q]["metrics"][metric] for q in shared},
                        {q: best[q]["metrics"][metric] for q in shared})


def _mean(scores: dict[str, float]) -> str:
    return f"{100 * sum(scores.values()) / len(scores):.1f}"


def _pooled(studies: list[StudyChoices], a: str, b: str) -> str:
    from hopkit.evaluation.paired import stratified_paired_bootstrap

    groups = [(list(getattr(s, a).values()), [getattr(s, b)[qid] for qid in getattr(s, a)]) for s in studies]
    diff, low, high = stratified_paired_bootstrap(groups)
    mark = " *" if low > 0 or high < 0 else ""
    return f"{b} - {a} = {100 * diff:+.1f}{mark} [{100 * low:+.1f}, {100 * high:+.1f}]"


def choice_rules_table(folders: list[Path]) -> str:
    """Per study: test scores of the paper's setting, the best dev score's setting and the guarded rule's;
    then the rules paired over every pooled test question (95% bootstrap intervals)."""

    summaries = [(folder, read_summary(folder)) for folder in folders]
    metrics = sorted({summary["metric"] for _, summary in summaries})
    if len(metrics) > 1:
        raise InputError(f"the studies were scored with different metrics ({', '.join(metrics)}); "
                         "pool studies of one metric")
    studies, lines = [], []
    for folder, summary in summaries:
        choices = study_choices(summary, folder)
        if isinstance(choices, str):
            lines.append(choices)
        else:
            studies.append(choices)
    if len(studies) < 2:
        return "\n".join(lines + ["choice rules across studies: fewer than two studies scored on test, "
                                   "nothing to pool"])
    table = [f"choice rules on the test halves of {len(studies)} studies ({metrics[0]} x 100; each rule's setting "
             "fixed on dev):",
             "| study | test questions | paper's setting | best dev score | guarded | guarded keeps |",
             "|---|---|---|---|---|---|"]
    for s in studies:
        keeps = ("both rules keep the paper's" if s.one_setting
                 else "the best" if s.guarded_takes_best else "the paper's")
        table.append(f"| {s.study} | {len(s.paper)} | {_mean(s.paper)} | {_mean(s.best)} | {_mean(s.guarded)} | "
                     f"{keeps} |")
    total = sum(len(s.paper) for s in studies)
    table.append(f"pooled over {total} test questions, paired: {_pooled(studies, 'paper', 'best')}; "
                 f"{_pooled(studies, 'paper', 'guarded')}; {_pooled(studies, 'best', 'guarded')}")
    return "\n".join(lines + table)
