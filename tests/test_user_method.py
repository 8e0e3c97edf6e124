"""A method of a user's own is one folder: its program, knobs, trace views and ablations in a file there, registered
in one line, and then every verb runs it by name. Here the folder is a temporary one, the command line finds it
through HOPKIT_METHODS, and nothing outside it is touched."""

import hashlib
import json
import textwrap
from pathlib import Path

import pytest
from lm_servers import scripted_lm_server

import hopkit
from hopkit.cli.main import main
from hopkit.knobs import KNOBS
from hopkit.programs import registry

HOPKIT = Path(hopkit.__file__).resolve().parent

METHOD_FILE = '''
"""Retrieve-then-read: one retrieval with the question, then an answer from the top k paragraphs."""
import dspy

import hopkit


class ReadTop(dspy.Signature):
    """Answer the question from the paragraphs."""

    paragraphs: list[str] = dspy.InputField()
    question: str = dspy.InputField()
    answer: str = dspy.OutputField(desc="a short answer")


class RetrieveThenRead(dspy.Module):
    def __init__(self, retriever, profile="hopkit", **given):
        super().__init__()
        self.retriever, self.profile = retriever, profile
        self.knobs = hopkit.program_knobs("retrieve-then-read", profile, given, owner="RetrieveThenRead")
        self.read = dspy.Predict(ReadTop)

    def forward(self, question):
        found = self.retriever.retrieve(question, self.knobs.k)
        out = self.read(paragraphs=[p.as_context() for p in found], question=question)
        pids = [p.pid for p in found]
        trace = {"method": "retrieve-then-read", "profile": self.profile, "read": pids}
        return hopkit.hop_prediction(out.answer, citations=pids, retrieved=pids, trace=trace)


def html(trace, cite):
    return '<div class="trace-view retrieve-then-read">read: ' + " ".join(cite(p) for p in trace["read"]) + "</div>"


hopkit.register_method(
    hopkit.Method("retrieve-then-read", "one retrieval, then a reader over the top k", "retrieve-then-read", True,
                  lambda retriever, reader, train, profile="hopkit", **knobs: RetrieveThenRead(retriever, profile,
                                                                                               **knobs),
                  views=hopkit.TraceViews(stats=lambda trace: {"paragraphs_read": len(trace["read"])}, html=html)),
    knobs={"k": hopkit.Knob("k", 3, "paragraphs read", 1, 10, 1, origin="this example")},
    ablations=[hopkit.Variant("retrieve-then-read", "retrieve-then-read"),
               hopkit.Variant("k=1", "retrieve-then-read", {"k": 1}, "depth")])
'''


def _fingerprint(root: Path) -> dict[str, str]:
    return {str(p): hashlib.sha1(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*.py"))}


@pytest.fixture
def registry_restored(monkeypatch):
    """The registration lasts for the test only."""
    monkeypatch.setattr(registry, "METHODS", dict(registry.METHODS))
    monkeypatch.setattr(registry, "ABLATIONS", dict(registry.ABLATIONS))
    monkeypatch.delitem(KNOBS, "retrieve-then-read", raising=False)
    yield
    KNOBS.pop("retrieve-then-read", None)


def test_a_method_in_its_own_folder_runs_through_eval_report_compare_and_ablate(tmp_path, monkeypatch, capsys,
                                                                                registry_restored):
    folder = tmp_path / "retrieve_then_read"
    folder.mkdir()
    (folder / "method.py").write_text(textwrap.dedent(METHOD_FILE))
    before = _fingerprint(HOPKIT)
    monkeypatch.setenv("HOPKIT_METHODS", str(folder / "method.py"))
    server = scripted_lm_server()
    lm = ["--lm", "openai/scripted", "--api-base", f"http://127.0.0.1:{server.server_address[1]}/v1", "--no-cache"]
    run = ["--method", "retrieve-then-read", "--dataset", "bundled:dev", "--n", "3", "--retriever", "bm25", "--quiet"]
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0
    assert main(["eval", *run, "--out", str(folder / "k3.jsonl"), *lm]) == 0
    assert main(["eval", *run, "--set", "k=1", "--out", str(folder / "k1.jsonl"), *lm]) == 0
    rows = [json.loads(line) for line in (folder / "k3.jsonl").read_text().splitlines()]
    assert len(rows) == 3 and all(len(row["trace"]["read"]) == 3 for row in rows)
    meta = json.loads((folder / "k3.meta.json").read_text())
    assert meta["spec"]["method"] == "retrieve-then-read"
    capsys.readouterr()

    assert main(["compare", str(folder / "k3.jsonl"), str(folder / "k1.jsonl"), "--samples", "200"]) == 0
    assert "recall@15" in capsys.readouterr().out
    assert main(["report", str(folder / "k3.jsonl"), str(folder / "k1.jsonl"), "--html",
                 str(folder / "page.html")]) == 0
    page = (folder / "page.html").read_text()
    assert page.count('class="trace-view retrieve-then-read"') == 6  # the method's own view of every trace
    assert main(["report", str(folder / "k3.jsonl")]) == 0
    assert "paragraphs_read" in capsys.readouterr().out  # its own statistics in the table
    assert main(["ablate", *run, "--out", str(folder / "ablate"), *lm]) == 0
    variant = [json.loads(line) for line in (folder / "ablate" / "k-1.jsonl").read_text().splitlines()]
    assert len(variant) == 3 and all(len(row["trace"]["read"]) == 1 for row in variant)  # the variant's knob held
    server.shutdown()
    assert _fingerprint(HOPKIT) == before  # no file of hopkit's own was written
    written = {p.name for p in tmp_path.iterdir()} - {"dspy-cache"}  # the test harness's DSPy folder aside
    assert written == {"retrieve_then_read"}


def test_a_second_method_of_the_same_name_is_refused(registry_restored):
    method = registry.get_method("oner")
    with pytest.raises(hopkit.errors.InputError, match="registered already"):
        hopkit.register_method(hopkit.Method("oner", "another", None, True, method.build))


def test_a_methods_file_that_is_not_there_is_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("HOPKIT_METHODS", str(tmp_path / "nowhere.py"))
    assert main(["knobs", "oner"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
