"""A run declared once: ``hopkit eval --config run.toml`` and ``--like LOG`` give the logged run's predictions
again, for each method, on a scripted LM; a spec with an unknown field, a wrong type or a missing file is a one-line
error; a flag overrides the file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import dspy
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from scripted_engine import FieldEchoEngine  # noqa: E402

from hopkit.cli.main import main  # noqa: E402
from hopkit.errors import InputError, MissingArtifactError  # noqa: E402
from hopkit.lm.accounted import AccountedLM  # noqa: E402
from hopkit.spec import RunSpec, from_log, from_toml  # noqa: E402


@pytest.fixture
def scripted(monkeypatch, hopkit_home):
    lm = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="Morn"), cache=False)
    monkeypatch.setattr("hopkit.lm.factory.use_lm", lambda spec: dspy.configure(lm=lm))
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0


def _predictions(path: Path) -> dict[str, dict]:
    return {row["qid"]: row["prediction"] for row in map(json.loads, path.read_text().splitlines())}


@pytest.mark.parametrize("method,knob", [("oner", "k=3"), ("ircot", "k=2"), ("searchain", "r_max=1"),
                                         ("tor", "depth=1")])
def test_like_and_config_give_the_logged_runs_predictions_again(scripted, tmp_path, method, knob):
    first = tmp_path / "first.jsonl"
    assert main(["eval", "--method", method, "--dataset", "bundled:dev", "--n", "2", "--set", knob, "--quiet",
                 "--profile", "paper", "--out", str(first)]) == 0
    spec = from_log(first)
    assert (spec.method, spec.n, spec.profile, spec.knobs) == (method, 2, "paper", {knob.split("=")[0]: int(knob[-1])})
    again = tmp_path / "again.jsonl"
    assert main(["eval", "--like", str(first), "--out", str(again), "--quiet"]) == 0
    assert _predictions(again) == _predictions(first)
    config = tmp_path / "run.toml"
    name, value = knob.split("=")
    config.write_text(f'method = "{method}"\ndataset = "bundled:dev"\nn = 2\nprofile = "paper"\n'
                      f'[knobs]\n{name} = {value}\n')
    from_file = tmp_path / "from-file.jsonl"
    assert main(["eval", "--config", str(config), "--out", str(from_file), "--quiet"]) == 0
    assert _predictions(from_file) == _predictions(first)


def test_a_flag_overrides_the_file(scripted, tmp_path):
    config = tmp_path / "run.toml"
    config.write_text('method = "oner"\nn = 3\n[knobs]\nk = 3\n')
    out = tmp_path / "run.jsonl"
    assert main(["eval", "--config", str(config), "--set", "k=5", "--n", "1", "--out", str(out), "--quiet"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1 and len(rows[0]["prediction"]["retrieved"]) == 5
    assert from_log(out).knobs == {"k": 5} and from_log(out).n == 1


def test_a_bad_spec_is_one_line(tmp_path, capsys):
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('method = "oner"\nknbos = {k = 3}\n')
    with pytest.raises(InputError, match=r"'knbos' is not a run setting \(did you mean 'knobs'\?\)"):
        from_toml(unknown)
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('method = "oner"\nn = "ten"\n')
    with pytest.raises(InputError, match=r"n = 'ten' is a str; it takes int or none"):
        from_toml(wrong)
    with pytest.raises(MissingArtifactError, match="no run file at"):
        from_toml(tmp_path / "missing.toml")
    with pytest.raises(InputError, match="has no knob 'kk'"):
        RunSpec(method="oner", knobs={"kk": 1}).checked()
    with pytest.raises(InputError, match="cannot change a saved program's knobs"):
        RunSpec(program=str(tmp_path), knobs={"k": 3}).checked()
    assert main(["eval", "--config", str(wrong)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("hopkit: error:") and "it takes int or none" in err[0]


def test_the_demo_builds_its_program_through_the_spec(scripted, monkeypatch, capsys):
    lm = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="Morn"), cache=False)
    monkeypatch.setattr("hopkit.cli.components.use_lm", lambda spec: (dspy.configure(lm=lm), lm)[1])
    assert main(["demo", "--n", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "== IRCoT on the bundled benchmark's first question" in out and "retrieve with the question" in out
    assert "step 1:" in out and "A: Morn" in out and "== OneR and IRCoT on the first 2 questions" in out
    assert "| oner bundled:dev | 2 |" in out and "| ircot bundled:dev | 2 |" in out and "B - A" in out
    from hopkit.paths import runs_dir

    ircot_meta = json.loads(next((runs_dir() / "demo").glob("ircot__*__4-demos.meta.json")).read_text())
    assert ircot_meta["knobs"] == {"max_demos": 4}  # the demo's one change to IRCoT, recorded in its log
    assert main(["demo", "--max-demos", "0"]) == 2
    assert main(["ask", "In which city was the creator of X born?", "--method", "oner", "--set", "k=2"]) == 0
    out = capsys.readouterr().out
    assert "A: Morn" in out and "[2]" in out and "[3]" not in out


def test_a_saved_program_runs_with_its_own_knobs_and_demonstrations(scripted, tmp_path):
    """``--program DIR``: the saved method, knobs and DSPy state decide the program; the log records the folder."""
    from hopkit.data.registry import load_dataset_spec
    from hopkit.optimize.saved import save_program
    from hopkit.programs.registry import build_program

    saved = build_program("oner", train=load_dataset_spec("bundled:train"), retriever=object(), k=3)
    folder = save_program(tmp_path / "saved", saved, "oner", {"k": 3})
    out = tmp_path / "run.jsonl"
    assert main(["eval", "--program", str(folder), "--dataset", "bundled:dev", "--n", "1", "--quiet",
                 "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["program"] == str(folder.resolve()) and meta["demos_from"] == "the saved program's"
    row = json.loads(out.read_text().splitlines()[0])
    assert len(row["prediction"]["retrieved"]) == 3, row["trace"]
    from hopkit.run.eval import build

    built = build(RunSpec(program=str(folder)).checked(), load_dataset_spec("bundled:dev"), configure_lm=lambda: None)
    assert built.program.k == 3 and built.program.dump_state() == saved.dump_state()


def test_a_saved_programs_log_is_labelled_with_its_own_method_and_profile(scripted, tmp_path):
    from hopkit.optimize.saved import save_program
    from hopkit.programs.registry import build_program

    saved = build_program("oner-cot", retriever=object(), profile="paper", k=3)
    folder = save_program(tmp_path / "saved", saved, "oner-cot", {"k": 3}, profile="paper")
    out = tmp_path / "run.jsonl"
    assert main(["eval", "--program", str(folder), "--dataset", "bundled:dev", "--n", "1", "--quiet",
                 "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert (meta["method"], meta["profile"], meta["knobs"]) == ("oner-cot", "paper", {"k": 3})


def test_a_saved_program_with_an_unknown_method_is_one_line(scripted, tmp_path, capsys):
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({"method": "onner", "knobs": {}}))
    (folder / "program.json").write_text("{}")
    assert main(["eval", "--program", str(folder), "--dataset", "bundled:dev", "--n", "1", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Did you mean 'oner'" in err[0]
