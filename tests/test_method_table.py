"""``hopkit table``: methods by datasets from a folder of run logs, each paired against the baseline."""

import gzip
import json

import pytest

from hopkit.cli.main import main
from hopkit.errors import InputError
from hopkit.evaluation.method_table import method_table, parse_labels


def _log(path, scores, gz=False):
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps({"qid": f"q{i}", "metrics": {"f1": s}}) + "\n" for i, s in enumerate(scores))
    if gz:
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)


@pytest.fixture
def logs(tmp_path):
    _log(tmp_path / "hotpot" / "oner.jsonl", [0.0] * 10)
    _log(tmp_path / "hotpot" / "ircot.jsonl", [1.0] * 10, gz=True)  # archived logs are read as they are
    _log(tmp_path / "musique" / "oner.jsonl", [0.0, 1.0] * 5)
    _log(tmp_path / "musique" / "ircot.jsonl", [0.0, 1.0] * 5)
    _log(tmp_path / "musique" / "nor.jsonl", [0.0] * 10)
    return tmp_path


def test_each_method_is_paired_against_the_baseline_on_each_dataset(logs):
    table = method_table(logs, "oner", samples=200).splitlines()
    assert table[0] == "| method | hotpot | musique |"
    assert table[2] == "| oner | 0.0 (n=10) | 50.0 (n=10) |"  # the baseline first, with no difference
    assert table[3] == "| ircot | 100.0 (n=10), +100.0* [+100.0, +100.0] | 50.0 (n=10), +0.0 [+0.0, +0.0] |"
    assert table[4].startswith("| nor | - | 0.0 (n=10), -50.0* [")  # no log on hotpot: a dash


def test_rows_and_columns_take_the_order_and_labels_given(logs):
    table = method_table(logs, "oner", methods=parse_labels("ircot=IRCoT,oner=OneR"),
                         datasets=parse_labels("musique=MuSiQue"), samples=200).splitlines()
    assert table[0] == "| method | MuSiQue |" and table[2].startswith("| IRCoT | 50.0 (n=10), +0.0")
    assert table[3] == "| OneR | 50.0 (n=10) |"


def test_the_verb_prints_the_table(logs, capsys):
    assert main(["table", str(logs), "--samples", "200", "--datasets", "hotpot"]) == 0
    out = capsys.readouterr().out
    assert "| ircot | 100.0 (n=10), +100.0* [+100.0, +100.0] |" in out and "paired difference" in out
    assert "| nor |" not in out  # only the methods with a log in the datasets shown


@pytest.mark.parametrize("args, message", [
    (dict(baseline="react"), "no log of the baseline 'react'"),
    (dict(baseline="oner", methods=parse_labels("selfask")), "holds a log of 'selfask'"),
    (dict(baseline="oner", datasets=parse_labels("2wiki")), "no dataset folder '2wiki'"),
    (dict(baseline="oner", metric="em"), "without 'em'"),
])
def test_a_wrong_name_says_what_the_folder_holds(logs, args, message):
    with pytest.raises(InputError, match=message):
        method_table(logs, samples=200, **args)


def test_a_folder_without_logs_is_refused(tmp_path):
    with pytest.raises(InputError, match="holds no DATASET/METHOD.jsonl"):
        method_table(tmp_path, "oner")


def test_a_bonferroni_table_widens_every_interval_to_hold_together(logs):
    plain = method_table(logs, "oner", samples=2000).splitlines()
    adjusted = method_table(logs, "oner", samples=2000, adjust="bonferroni").splitlines()
    assert plain[2] == adjusted[2]  # the baseline's own scores are unchanged
    nor_plain, nor_adjusted = plain[4].split("[")[1], adjusted[4].split("[")[1]  # nor on musique: 0 against 0.5
    low_plain, low_adjusted = (float(cell.split(",")[0]) for cell in (nor_plain, nor_adjusted))
    assert low_adjusted < low_plain  # 3 differences in the table: each at 1 - 0.05 / 3
    assert "98.33% bootstrap interval, Bonferroni-adjusted over the table's 3 differences" in adjusted[-1]
    with pytest.raises(InputError, match="unknown adjustment 'holm'"):
        method_table(logs, "oner", adjust="holm")
