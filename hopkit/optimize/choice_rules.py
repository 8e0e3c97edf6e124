"""The choice rules compared over studies: per study, the test scores of the paper's setting, of the best dev score's
setting and of the guarded rule's (hopkit/optimize/guarded_choice.py), then the rules paired over every pooled test
question."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopkit.errors import InputError
from hopkit.optimize.summary import guarded_verdict, read_summary, study_log


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
