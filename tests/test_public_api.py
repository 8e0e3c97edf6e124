"""The flat public API: the README's Python section runs as written (on a scripted LM), names resolve
lazily, and ``python -m hopkit`` is the command line."""

import re
import subprocess
import sys
from pathlib import Path

import dspy
import pytest
from scripted_engine import FieldEchoEngine

import hopkit
from hopkit.lm.accounted import AccountedLM

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_section_snippets() -> list[str]:
    section = README.read_text(encoding="utf-8").split("## Python API", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_snippet_runs_as_written_on_a_scripted_lm(hopkit_home, monkeypatch, capsys):
    scripted = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="Morn"), cache=False)
    monkeypatch.setattr(hopkit, "local_lm", lambda *args, **kwargs: scripted, raising=False)
    first = _python_section_snippets()[0]
    lines = [line for line in first.splitlines() if line.strip()]
    assert lines[0].startswith("import dspy, hopkit") and lines[1].startswith("dspy.configure(")
    assert len(lines) == 5  # three lines after dspy.configure
    exec(compile(first, "README.md", "exec"), {})
    assert capsys.readouterr().out.strip() == "Morn"
    assert dspy.settings.lm is scripted


def test_the_second_snippet_evaluates_and_reads(hopkit_home, monkeypatch, tmp_path, capsys):
    scripted = AccountedLM("local/scripted", engine=FieldEchoEngine(answer="Morn"), cache=False)
    dspy.configure(lm=scripted)
    data = hopkit.load_dataset("bundled:dev")
    program = hopkit.OneR(hopkit.BM25(data.corpus))
    monkeypatch.chdir(tmp_path)
    namespace = {"hopkit": hopkit, "program": program, "data": data}
    exec(compile(_python_section_snippets()[1], "README.md", "exec"), namespace)
    report = namespace["report"]
    assert report.n == 20 and set(report.metrics) == {"em", "f1", "cover_em", "recall@15"}
    assert (tmp_path / "runs" / "ircot.jsonl").is_file()


def test_every_exported_name_resolves_and_unknown_names_fail():
    for name in hopkit.__all__:
        assert getattr(hopkit, name) is not None, name
    assert hopkit.BM25.__name__ == "BM25Retriever" and callable(hopkit.ColBERTv2)
    with pytest.raises(AttributeError):
        hopkit.NoSuchThing  # noqa: B018


def test_colbertv2_takes_a_server_url():
    from hopkit.retrieval.remote import RemoteColBERT

    assert isinstance(hopkit.ColBERTv2("http://127.0.0.1:8893/api/search"), RemoteColBERT)


def test_python_dash_m_hopkit_is_the_cli():
    result = subprocess.run([sys.executable, "-m", "hopkit", "--help"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "calibrate-reader" in result.stdout


@pytest.mark.parametrize("method,cls", [("ircot", "IRCoT"), ("searchain", "SearChain"), ("tor", "TreeOfReviews")])
@pytest.mark.parametrize("profile", ["hopkit", "paper"])
def test_python_and_the_cli_build_the_same_program(hopkit_home, method, cls, profile):
    """``hopkit eval --method M --dataset bundled:dev --profile P`` and ``hopkit.M(..., train=bundled:train,
    profile=P)``: the same prompts, demonstrations included (the README's promise)."""
    from hopkit.cli.answer import _program
    from hopkit.cli.main import build_parser, main

    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    args = build_parser().parse_args(["eval", "--method", method, "--dataset", "bundled:dev", "--profile", profile])
    data = hopkit.load_dataset("bundled:dev")
    from_cli, _ = _program(args, data, lambda: None)
    retriever = hopkit.BM25(data.corpus)
    reader = [hopkit.LMReader()] if method == "searchain" else []
    from_python = getattr(hopkit, cls)(retriever, *reader, train=hopkit.load_dataset("bundled:train"), profile=profile)
    assert from_cli.dump_state() == from_python.dump_state()
    assert from_cli.knobs == from_python.knobs
    assert any(predictor.demos for _, predictor in from_python.named_predictors())


def test_no_exported_name_is_shadowed_by_a_submodule_of_that_name():
    """Importing ``hopkit.X`` sets the package's attribute ``X`` to the module: an exported function named like a
    module would then resolve to the module in any process that imported it first (the CLI does)."""
    import pkgutil

    modules = {info.name for info in pkgutil.iter_modules(hopkit.__path__)}
    assert sorted(set(hopkit.__all__) & modules) == []
