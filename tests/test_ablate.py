"""hopkit ablate: every declared variant on the same questions, resumable, with tables, intervals and a chart."""

import json

import dspy
import pytest
from scripted_engine import FieldEchoEngine

from hopkit.cli.main import main
from hopkit.errors import InputError
from hopkit.lm.accounted import AccountedLM
from hopkit.programs.registry import ABLATIONS
from hopkit.variants import parse_variants


@pytest.fixture
def scripted(monkeypatch, hopkit_home):
    engine = FieldEchoEngine(answer="Morn")
    lm = AccountedLM("local/scripted", engine=engine, cache=False)
    monkeypatch.setattr("hopkit.cli.ablate.configure_lm", lambda args: dspy.configure(lm=lm))
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    return engine


def test_ircot_ablations_write_tables_intervals_and_a_chart_and_resume(scripted, tmp_path, capsys):
    out = tmp_path / "ablate"
    argv = ["ablate", "--method", "ircot", "--dataset", "bundled:dev", "--n", "3", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    names = [v.name for v in ABLATIONS["ircot"]]
    assert all(f"| {name} | 3 |" in printed for name in names)
    summary = json.loads((out / "summary.json").read_text())
    assert [v["name"] for v in summary["variants"]] == names
    assert summary["variants"][0]["paired_vs_first"] == {} and "f1" in summary["variants"][1]["paired_vs_first"]
    assert all(len(v["intervals"]["f1"]) == 2 for v in summary["variants"])
    assert (out / "table.csv").read_text().splitlines()[0].startswith("variant,method,knobs,n,em,em_low,em_high")
    tex = (out / "table.tex").read_text()  # the same table for a paper
    assert tex.count(r"\begin{tabular}") == 1 and tex.count(" & 3 & ") == len(names)
    assert (out / "chart.png").stat().st_size > 1000 and (out / "chart.svg").read_text().lstrip().startswith("<?xml")
    calls = len(scripted.requests)
    assert main(argv) == 0  # everything is in the logs: no LM call
    assert len(scripted.requests) == calls


def test_user_variants_inline_and_from_json(tmp_path):
    inline = parse_variants("K4:k=4;K8:k=8,answer_reader=direct", "ircot")
    assert [(v.name, v.method, v.knobs) for v in inline] == [("K4", "ircot", {"k": 4}),
                                                              ("K8", "ircot", {"k": 8, "answer_reader": "direct"})]
    path = tmp_path / "variants.json"
    path.write_text(json.dumps([{"name": "base"}, {"name": "OneR", "method": "oner", "knobs": {"k": 5}}]))
    assert [(v.method, v.knobs) for v in parse_variants(str(path), "ircot")] == [("ircot", {}), ("oner", {"k": 5})]
    with pytest.raises(InputError):
        parse_variants("no colon here", "ircot")


def test_a_bad_variant_knob_fails_before_anything_runs(scripted, tmp_path):
    code = main(["ablate", "--method", "ircot", "--dataset", "bundled:dev", "--n", "2", "--out", str(tmp_path),
                 "--variants", "A:k=99"])
    assert code != 0 and scripted.requests == [] and not list(tmp_path.glob("*.jsonl"))


def test_only_picks_declared_variants_and_the_paper_profile_runs_as_paper(scripted, tmp_path):
    from hopkit.knobs import KNOBS

    additions = [name for name, knob in KNOBS["tor"].items() if knob.addition]
    declared = [v.name for v in ABLATIONS["tor"]]
    assert all(any(f"{name}" in v for v in declared) for name in additions) and "paper profile" in declared
    out = tmp_path / "ablate"
    assert main(["ablate", "--method", "ircot", "--dataset", "bundled:dev", "--n", "2", "--out", str(out), "--quiet",
                 "--only", "w/o yes_no_check,paper profile"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [v["name"] for v in summary["variants"]] == ["IRCoT (CoT reader)", "w/o yes_no_check", "paper profile"]
    paper_log = [json.loads(line) for line in open(summary["variants"][2]["log"])]
    assert all(row["trace"]["profile"] == "paper" for row in paper_log if "trace" in row)
    assert main(["ablate", "--method", "ircot", "--n", "1", "--only", "w/o everything"]) == 2




def test_each_variant_records_the_demonstrations_its_own_profile_read(scripted, tmp_path):
    variants = tmp_path / "variants.json"
    variants.write_text(json.dumps([{"name": "hopkit", "method": "oner", "knobs": {"k": 3}},
                                    {"name": "paper", "method": "oner", "knobs": {"k": 3}, "profile": "paper"}]))
    out = tmp_path / "ablate"
    assert main(["ablate", "--method", "oner", "--variants", str(variants), "--dataset", "bundled:dev", "--n", "1",
                 "--retriever", "bm25", "--out", str(out), "--quiet"]) == 0
    recorded = {name: json.loads((out / f"{name}.meta.json").read_text()) for name in ("hopkit", "paper")}
    # OneR reads zero-shot under hopkit's profile and with the paper's few-shot reader under paper's
    assert recorded["hopkit"]["demos_from"] == "none" and recorded["paper"]["demos_from"] == "bundled:train"
    assert recorded["paper"]["profile"] == "paper" and recorded["paper"]["retriever"] == "bm25"


def test_an_ablation_from_python_runs_the_commands_code_and_writes_the_same_tables(scripted, tmp_path, capsys):
    import hopkit
    from hopkit.cli import ablate

    spec = hopkit.RunSpec(method="ircot", dataset="bundled:dev", n=2, retriever="bm25", lm="local/scripted",
                          knobs={"max_steps": 2}, out=str(tmp_path / "python"))
    run = hopkit.run_ablation(spec, [hopkit.Variant("full", "ircot"), hopkit.Variant("K=2", "ircot", {"k": 2})],
                              progress=False, configure_lm=lambda: ablate.configure_lm(None))  # the scripted LM
    assert main(["ablate", "--method", "ircot", "--dataset", "bundled:dev", "--n", "2", "--retriever", "bm25",
                 "--lm", "local/scripted", "--set", "max_steps=2", "--variants", "full:;K=2:k=2",
                 "--out", str(tmp_path / "cli"), "--quiet"]) == 0
    assert [r.variant.name for r in run.results] == ["full", "K=2"] and run.table.startswith("### ircot ablations")
    python, cli = (json.loads((tmp_path / side / "summary.json").read_text())["variants"] for side in ("python", "cli"))
    assert [(v["name"], v["knobs"], v["n"], v["means"], v["errors"]) for v in python] == [
        (v["name"], v["knobs"], v["n"], v["means"], 0) for v in cli]
    assert python[0]["means"]["recall@15"] > 0
    metas = [json.loads((tmp_path / side / "k-2.meta.json").read_text()) for side in ("python", "cli")]
    assert metas[0]["spec"] == metas[1]["spec"] and metas[0]["spec"]["knobs"] == {"k": 2, "max_steps": 2}


def test_an_ablation_from_python_refuses_a_bad_variant_knob_before_anything_loads(hopkit_home, tmp_path):
    import hopkit

    with pytest.raises(InputError, match="k"):
        hopkit.run_ablation(hopkit.RunSpec(method="ircot", out=str(tmp_path / "a")),
                            [hopkit.Variant("full", "ircot"), hopkit.Variant("bad", "ircot", {"k": 99})])
    assert not (tmp_path / "a").exists()
