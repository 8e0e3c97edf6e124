"""Where unfinished reproduce studies stand, read from their folders (``hopkit reproduce-table`` prints it under
the table): the tune grid's settings and how many questions each has answered, with its tune score so far (what
the choice will read), by its knobs (a shared grid answers
one group of settings after another), and the test split's rows, with the seconds a row took to compute. Where the
study's ``started.json`` gives its size, the line ends with the hours still to go at the pace so far: each chain or
setting at its own mean (the mean, not the median: a total is the mean times the count, and a few slow questions weigh
in it), since a grid's settings differ in cost; the test split, until it has rows, at the setting leading on the tune
split, the one the test will likely answer with. The pace is each row's computed seconds, a cached answer counting its
first computation: the questions to go will not be in the cache, so a replayed row's near-0 wall time would make them
look free (hopkit/reproduce/hours.py counts the wall seconds the machine spent).
A study is finished once its ``reproduce.json`` is written."""

from __future__ import annotations

import itertools
import json
import math
import statistics
from collections.abc import Callable
from pathlib import Path

from hopkit.evaluation.paired import read_rows
from hopkit.lm.usage import computed_cost
from hopkit.reproduce.protocol import STARTED, ReproduceRequest
from hopkit.reproduce.shared_work import READER, SHARED_CHAIN


def unfinished(folders: list[Path]) -> list[Path]:
    """Study folders under ``folders`` (or the folders themselves) that hold a tune or test log but no
    reproduce.json yet."""
    candidates = [f for folder in folders for f in ([folder] if _is_study(folder) else sorted(folder.glob("*/")))]
    return [f for f in candidates if _is_study(f) and not (f / "reproduce.json").is_file()]


def _is_study(folder: Path) -> bool:
    return folder.is_dir() and (any(folder.glob("tune-*/settings/*.meta.json")) or any(folder.glob("test/*.jsonl")))


def progress_line(folder: Path) -> str:
    """One line: each tune grid's settings and the questions each has answered, then the test rows, each against
    the study's size where its ``started.json`` records it."""
    started_path = folder / STARTED
    started = json.loads(started_path.read_text()) if started_path.is_file() else {}
    of_tune = f" of {started['tune_n']}" if "tune_n" in started else ""
    of_test = f" of {started['test_n']}" if "test_n" in started else ""
    parts = []
    metric = ReproduceRequest.metric  # what the tune split picks by
    units: dict[tuple, float] = {}  # the tune grid's work done, one unit a question of a chain (or of a setting)
    ranked: list[tuple[float, tuple]] = []  # each begun setting's tune score so far, with its unit group
    for tune in sorted(folder.glob("tune-*")):
        settings = setting_logs(tune)
        for knobs, found in settings:
            count_units(units, tune.name, knobs, found)
        scored = [(knobs, found, _mean_score(found, metric)) for knobs, found in settings if found]
        ranked += [(score, unit_group(tune.name, knobs, found[0])) for knobs, found, score in scored]
        if settings:
            answered = [len(found) for _, found in settings]
            begun = [f"{_label(knobs)} {len(found)} ({metric} {score:.1f})" for knobs, found, score in scored]
            waiting = f"; not started: {answered.count(0)}" if 0 in answered else ""
            pace = _pace([found for _, found in settings])
            count = f"{len(settings)} setting{'' if len(settings) == 1 else 's'}"
            parts.append(f"{tune.name}: {count}, {min(answered)} to {max(answered)}{of_tune} "
                         f"questions each (answered: {', '.join(begun) or 'none'}{waiting}; {pace})")
    tests = test_rows(folder)
    parts.append(f"test: {sum(map(len, tests))}{of_test} questions ({_pace(tests)})" if tests else "test: not started")
    to_go = _to_go(started, units, tests, _leader(ranked))
    parts += [to_go] if to_go else []
    code = f" at {started['commit']}" if started.get("commit") else ""
    return f"{folder.name}, in progress{code}: " + "; ".join(parts)


def setting_logs(tune: Path) -> list[tuple[dict, list[dict]]]:
    """A tune grid's settings, each as its knobs and the rows it has answered (none yet: its metadata is written
    before its first row). A setting's metadata drops a knob at its profile value (a run spec's rule), so its grid
    point is read from the log's name, which is the point's key (hopkit/optimize/objective.py)."""
    points = _grid_points(tune.parent)
    settings = []
    for meta in sorted((tune / "settings").glob("*.meta.json")):
        stem = meta.name.removesuffix(".meta.json")
        log = meta.with_name(stem + ".jsonl")
        knobs = {**(json.loads(meta.read_text()).get("knobs") or {}), **points.get(stem, {})}
        settings.append((knobs, list(read_rows(log).values()) if log.is_file() else []))
    return settings


def _grid_points(study: Path) -> dict[str, dict]:
    """``setting-KEY`` -> the grid point it names, from the grid the study records (empty where it records none)."""
    from hopkit.optimize.objective import setting_log_name

    for name in (STARTED, "reproduce.json"):
        if (study / name).is_file():
            grid = json.loads((study / name).read_text()).get("grid") or {}
            points = [dict(zip(grid, values)) for values in itertools.product(*grid.values())]
            return {setting_log_name(point).removesuffix(".jsonl"): point for point in points}
    return {}


def test_rows(folder: Path) -> list[list[dict]]:
    """The rows of each of a study's test logs (one a prompt set; a finished one may be archived gzipped)."""
    logs = sorted(log for pattern in ("*.jsonl", "*.jsonl.gz") for log in (folder / "test").glob(pattern))
    return [list(read_rows(log).values()) for log in logs]


def _mean_score(rows: list[dict], metric: str) -> float:
    """A setting's tune score so far, in points: a selection figure, read before the grid is done."""
    return 100 * sum(float((row.get("metrics") or {}).get(metric, 0.0)) for row in rows) / len(rows)


def _label(knobs: dict) -> str:
    """A setting by its knobs, e.g. ``answer_reader=cot k=2``."""
    return " ".join(f"{name}={value}" for name, value in sorted(knobs.items())) or "no knobs"


def computed_seconds(row: dict) -> float:
    """A row's seconds as answering computed them, a cached LM call counting its first computation."""
    return computed_cost(row.get("cost") or {})["seconds"]


def count_units(units: dict[tuple, float], tune: str, knobs: dict, rows: list[dict],
                seconds: Callable[[dict], float] = computed_seconds) -> None:
    """A shared chain's rows each carry the chain's cost (hopkit/reproduce/shared_work.py), so the readers' rows on
    one chain are one unit, costing its dearest row; any other row is a unit of its own. A unit's key is
    ``(group, qid)``, the group naming its tune grid and its chain or setting."""
    for row in rows:
        key = (unit_group(tune, knobs, row), str(row.get("qid")))
        units[key] = max(units.get(key, 0.0), seconds(row))


def unit_group(tune: str, knobs: dict, row: dict) -> tuple:
    """The tune grid and the chain or setting a row's unit belongs to (a shared chain's group leaves its reader out)."""
    shared = bool(row.get("shared_chain"))
    group = {name: value for name, value in knobs.items() if not (shared and name == READER)}
    return (tune, json.dumps(group, sort_keys=True, default=str), shared)


def _leader(ranked: list[tuple[float, tuple]]) -> tuple | None:
    """The unit group (chain or setting) of the setting with the best tune score so far, the likeliest to be chosen
    for the test split; a shared chain's readers are scored apart, as the choice scores them (None: fewer than two
    settings to compare, or a tie at the top)."""
    ranked = sorted(ranked, key=lambda scored: scored[0], reverse=True)
    if len(ranked) < 2 or ranked[0][0] == ranked[1][0]:
        return None
    return ranked[0][1]


def _to_go(started: dict, units: dict[tuple, float], tests: list[list[dict]],
           leader: tuple | None = None) -> str | None:
    """The hours the tune grid and the test split still need, where ``started.json`` gives the study's size. A
    begun chain or setting's questions to go are paced at its own mean so far (a larger K costs more a question),
    one not begun at the grid's mean, and a test question at the test rows' mean; until the test has rows, at the
    pace of the setting leading on the tune split (the test answers with the chosen setting alone), or at the grid's
    where none leads."""
    if not {"grid", "tune_n", "test_n"} <= set(started) or not units:
        return None
    grid, sets, tune_n = started["grid"] or {}, int(started.get("prompt_sets") or 1), int(started["tune_n"])
    per_question = math.prod(len(values) for name, values in grid.items()
                             if not (name == READER and started.get("method") in SHARED_CHAIN and len(values) > 1))
    tune_left = max(0, sets * per_question * tune_n * bool(grid) - len(units))
    groups: dict[tuple, list[float]] = {}
    for (group, _qid), seconds in units.items():  # group: the unit's tune grid and its chain or setting
        groups.setdefault(group, []).append(seconds)
    test_seconds = [computed_seconds(row) for rows in tests for row in rows]
    test_left = max(0, sets * int(started["test_n"]) - len(test_seconds))

    def hours(pace: Callable[[list[float]], float]) -> float:
        begun_left = [(max(0, tune_n - len(seconds)), pace(seconds)) for seconds in groups.values()]
        not_begun = max(0, tune_left - sum(left for left, _ in begun_left))
        grid_pace = pace(list(units.values()))
        test_pace = (pace(test_seconds) if test_seconds else pace(groups[leader]) if leader in groups
                     else grid_pace)
        return (sum(left * each for left, each in begun_left) + not_begun * grid_pace + test_left * test_pace) / 3600

    # the mean carries every slow question so far (a fresh process's prefixes, other work on the cores), the median
    # what a question costs when none of that recurs
    paced_by = (f" at the pace of {_label(json.loads(leader[1]))}, leading on tune"
                if leader in groups and test_left and not test_seconds else "")
    return (f"to go: about {hours(statistics.mean):.1f} hours at the pace so far, {hours(statistics.median):.1f} at "
            f"its median ({tune_left} tune questions of a chain or setting, {test_left} test questions{paced_by})")


def _pace(logs: list[list[dict]]) -> str:
    seconds = [computed_seconds(row) for rows in logs for row in rows]
    if not seconds:
        return "no rows yet"
    return f"{len(seconds)} rows, median {statistics.median(seconds):.0f} s a row"
