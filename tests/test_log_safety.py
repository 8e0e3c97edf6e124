"""Logs that lose nothing: an --out that is not a run log is refused untouched, a last row without its newline is not
glued to the next, a symlinked --out keeps rows and metadata together, duplicate question ids are refused with their
lines, and a damaged index is one line naming the command that builds it again."""

import json
import shutil

import pytest
from lm_servers import scripted_lm_server

from hopkit.cli.main import main


@pytest.fixture(scope="module")
def server():
    live = scripted_lm_server()
    yield live
    live.shutdown()


@pytest.fixture(scope="module")
def bundled_index(hopkit_home):
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev"]) == 0


def _eval(server, out, *extra, n=3, dataset="bundled:dev"):
    return main(["eval", "--method", "oner", "--dataset", dataset, "--n", str(n), "--lm", "openai/scripted",
                 "--set", "option_check=false", "--api-base", f"http://127.0.0.1:{server.server_address[1]}/v1",
                 "--no-cache", "--quiet", "--out", str(out), *extra])


def _one_line_error(capsys, *words):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and all(word in err[0] for word in words), err


@pytest.mark.parametrize("content", ["name,score\nMorn,1\n", '{"id": "q1", "question": "Who?", "answers": ["x"]}\n'],
                         ids=["csv", "dataset"])
def test_an_out_that_is_not_a_run_log_is_refused_and_left_as_it_was(bundled_index, server, tmp_path, capsys,
                                                                     content):
    out = tmp_path / "notes.csv"
    out.write_text(content)
    assert _eval(server, out) == 2
    _one_line_error(capsys, "is not a run log", "pass another --out")
    assert out.read_text() == content and not out.with_suffix(".meta.json").exists()


def test_a_last_row_without_its_newline_is_not_glued_to_the_next(bundled_index, server, tmp_path):
    out = tmp_path / "run.jsonl"
    assert _eval(server, out, n=1) == 0
    out.write_text(out.read_text().rstrip("\n"))  # as an editor or a copy might leave it
    assert _eval(server, out, n=3) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["qid"] for line in lines)


def test_a_symlinked_out_keeps_rows_and_metadata_together(bundled_index, server, tmp_path):
    target = tmp_path / "real" / "run.jsonl"
    target.parent.mkdir()
    target.touch()
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert _eval(server, link) == 0
    assert len(target.read_text().splitlines()) == 3 and target.with_suffix(".meta.json").is_file()
    assert not link.with_suffix(".meta.json").exists()


def test_duplicate_question_ids_are_refused_with_their_lines(tmp_path, capsys):
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps({"id": qid, "question": f"Who {i}?", "answers": ["x"]}) + "\n"
                                 for i, qid in enumerate(["a", "b", "a"])))
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"title": "T", "text": "Some text."}) + "\n")
    assert main(["eval-retrieval", "--dataset", f"qa:{questions}@{corpus}", "--retriever", "bm25"]) == 2
    _one_line_error(capsys, "q.jsonl:3", "'a'", "line 1")


@pytest.mark.parametrize("damage", ["truncated-array", "garbage-manifest", "deleted-folder"])
def test_a_damaged_index_is_one_line_that_names_the_rebuild(bundled_index, server, tmp_path, capsys, damage):
    index = tmp_path / "index"
    assert main(["index", "--backend", "bm25", "--dataset", "bundled:dev", "--out", str(index)]) == 0
    if damage == "truncated-array":
        array = next((index / "bm25").glob("data*.npy"))
        array.write_bytes(array.read_bytes()[:100])
    elif damage == "garbage-manifest":
        (index / "hopkit-index.json").write_text("{not json")
    else:
        shutil.rmtree(index / "bm25")
    capsys.readouterr()
    for command in (["eval-retrieval", "--dataset", "bundled:dev", "--retriever", "bm25", "--index", str(index)],
                    ["serve", "--index", str(index), "--port", "0"]):
        assert main(command) == 2, command
        _one_line_error(capsys, "is damaged", "hopkit index --backend")
    out = tmp_path / "run.jsonl"
    assert _eval(server, out, "--retriever", "bm25", "--index", str(index)) == 2
    _one_line_error(capsys, "is damaged", "hopkit index --backend")
    assert not out.exists()


BENCH_SPLITS = ["--dataset", "bundled:dev", "--demos-from", "bundled:train"]


@pytest.mark.parametrize("verb", [
    ["report", "LOG", "--html"], ["replay", "LOG", "--out"], ["bench-lm", "--out"],
    ["bench-retrieval", "--sizes", "3000", "--out"], ["bench-grid", "ircot", *BENCH_SPLITS, "--out"],
    ["bench-demos", *BENCH_SPLITS, "--out"]], ids=lambda verb: verb[0])
def test_every_out_that_is_not_the_verbs_own_file_is_refused_and_left_as_it_was(tmp_path, capsys, verb):
    """Besides eval's run logs: a page, a replayed log and each benchmark's figures are written only over their
    own kind of file, and refused in one line before any work."""
    from pathlib import Path

    log = Path(__file__).parent / "fixtures" / "logs" / "ircot.jsonl"
    out = tmp_path / "notes.csv"
    out.write_text("name,score\nMorn,1\n")
    assert main([str(log) if part == "LOG" else part for part in verb] + [str(out)]) == 2
    _one_line_error(capsys, str(out), "pass another --")
    assert out.read_text() == "name,score\nMorn,1\n"


@pytest.mark.parametrize("verb", [
    ["optimize", "--method", "oner", "--dataset", "bundled", "--trials", "1"],
    ["reproduce", "oner", "--test", "bundled:dev"],
    ["ablate", "--method", "ircot", "--dataset", "bundled:dev"]], ids=lambda verb: verb[0])
def test_a_study_out_that_is_not_such_a_study_is_refused_and_left_as_it_was(tmp_path, capsys, verb):
    """A study writes its summary, table and plots into its --out folder only where that folder is new, empty or a
    study of its kind, so a folder of the user's own keeps its files; refused in one line before anything loads."""
    out = tmp_path / "results"
    out.mkdir()
    (out / "summary.json").write_text('{"mine": 1}')
    assert main([*verb, "--out", str(out)]) == 2
    _one_line_error(capsys, str(out), "pass another --out")
    assert [p.name for p in out.iterdir()] == ["summary.json"] and (out / "summary.json").read_text() == '{"mine": 1}'
    file = tmp_path / "notes.csv"
    file.write_text("a,b\n")
    assert main([*verb, "--out", str(file)]) == 2
    _one_line_error(capsys, "it is a file")


def test_a_study_folder_of_its_kind_or_an_empty_one_is_taken(tmp_path):
    from hopkit.paths import check_study_folder

    assert check_study_folder(tmp_path / "new", ("study.db",), "a study") is None  # not refused, and not made
    assert not (tmp_path / "new").exists()
    assert check_study_folder(tmp_path, ("study.db",), "a study") is None  # empty
    (tmp_path / "summary.json").write_text("{}")
    (tmp_path / "study.db").write_text("")
    assert check_study_folder(tmp_path, ("study.db",), "a study") is None  # its own, resumed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.db", "summary.json"]  # nothing touched
