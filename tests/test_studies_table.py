"""``hopkit report STUDY STUDY ...``: optimize studies side by side, each chosen setting paired against trial 0 on
its test questions, and the difference pooled over the studies."""

import gzip
import json

import pytest

from hopkit.cli.main import main
from hopkit.errors import InputError
from hopkit.optimize.studies_table import studies_table


def _study(folder, default, best, gz=False):
    (folder / "test").mkdir(parents=True)
    for name, scores in (("default-0.jsonl", default), ("best-3.jsonl", best)):
        text = "".join(json.dumps({"qid": f"q{i}", "metrics": {"f1": s}}) + "\n" for i, s in enumerate(scores))
        path = folder / "test" / name
        path.with_name(name + ".gz").write_bytes(gzip.compress(text.encode())) if gz else path.write_text(text)
    summary = {"study": folder.name, "metric": "f1", "settings": 2, "trials": 2, "default_trial": 0, "best_trial": 3,
               "demos": "none", "dev_n": 10, "test_n": len(best), "best_knobs": {"k": 4},
               "dev": {"default": 0.2, "best": 0.4}, "test": {"default": 0.0, "best": 1.0}, "cache_hit_rate": 0.0,
               "seconds_all_runs": 0.0, "lm_calls_per_question": {"test_default": 3.0, "test_best": 4.0},
               # where the run wrote its logs: the folder has moved since, and one study gzipped them
               "logs": {"test_default": "/elsewhere/test/default-0.jsonl", "test_best": "/elsewhere/test/best-3.jsonl"}}
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


def test_each_study_is_paired_and_the_difference_pooled(tmp_path):
    a = _study(tmp_path / "ircot-musique", [0.0] * 10, [1.0] * 10)
    b = _study(tmp_path / "tor-musique", [1.0] * 10, [1.0] * 10, gz=True)
    table = studies_table([a, b], samples=200).splitlines()
    assert table[2] == ("| ircot-musique | {'k': 4} | 20.0 / 40.0 | 0.0 / 100.0 (n=10) | +100.0 [+100.0, +100.0] | "
                        "3.00 / 4.00 |")
    assert table[3].startswith("| tor-musique | {'k': 4} | 20.0 / 40.0 | 100.0 / 100.0 (n=10) | +0.0 [+0.0, +0.0]")
    assert table[-1].startswith("pooled over 20 test questions of 2 studies: chosen - trial 0 = +50.0 [+50.0, +50.0]")


def test_the_report_verb_shows_several_studies_side_by_side(tmp_path, capsys):
    folders = [str(_study(tmp_path / name, [0.0] * 4, [1.0] * 4)) for name in ("one", "two")]
    assert main(["report", *folders]) == 0
    out = capsys.readouterr().out
    assert "| one |" in out and "| two |" in out and "pooled over 8 test questions of 2 studies" in out
    assert out.index("pooled over 8 test questions of 2 studies") < out.index("choice rules")  # the rules come last


def test_a_study_without_its_test_log_says_where_it_looked(tmp_path):
    study = _study(tmp_path / "s", [0.0], [1.0])
    (study / "test" / "best-3.jsonl").unlink()
    with pytest.raises(InputError, match="its test log best-3.jsonl is not in"):
        studies_table([study])


def test_one_studys_summary_pairs_its_gzipped_test_logs(tmp_path, capsys):
    study = _study(tmp_path / "archived", [0.0] * 4, [1.0] * 4, gz=True)  # a finished study keeps LOG.jsonl.gz
    assert main(["report", str(study)]) == 0
    out = capsys.readouterr().out
    assert "test:" in out and "is not there" not in out
