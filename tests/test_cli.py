"""Bad input through the real command line: one actionable line on stderr, exit 2, no traceback."""

import os
import subprocess
import sys

import pytest


def hopkit(args, home):
    env = {**os.environ, "HOPKIT_HOME": str(home), "HOPKIT_RUNS": str(home / "runs"),
           "HOPKIT_MODELS": str(home / "models")}
    return subprocess.run([sys.executable, "-m", "hopkit.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("cli-home")
    built = hopkit(["index", "--dataset", "bundled:dev"], home)
    assert built.returncode == 0, built.stderr
    return home


def assert_one_line_error(result, *fragments):
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("hopkit: error:"), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_empty_question(home):
    assert_one_line_error(hopkit(["ask", "  "], home), "question is empty")


def test_unknown_method_and_dataset(home):
    assert_one_line_error(hopkit(["ask", "q?", "--method", "onr"], home), "unknown method 'onr'", "oner")
    assert_one_line_error(hopkit(["eval", "--dataset", "hotpot:dev"], home), "unknown dataset 'hotpot'")


def test_missing_index(home, tmp_path):
    assert_one_line_error(hopkit(["ask", "q?", "--index", str(tmp_path / "none")], home), "hopkit index")


def test_corrupt_model_pack(home):
    models = home / "models"
    models.mkdir(exist_ok=True)
    (models / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf").write_bytes(b"not a model")
    assert_one_line_error(hopkit(["ask", "q?", "--lm", "local:qwen0.5b"], home), "corrupt", "hopkit models fetch")


def test_a_file_that_is_not_gguf(home, tmp_path):
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF but not really")
    assert_one_line_error(hopkit(["ask", "q?", "--lm", f"local:{bad}"], home), "not a valid GGUF model")


def test_unreachable_endpoint(home):
    result = hopkit(["eval", "--n", "2", "--lm", "openai/some-model", "--api-base", "http://127.0.0.1:9/v1"], home)
    assert_one_line_error(result, "did not answer", "--api-base")


def test_bad_knob(home):
    assert_one_line_error(hopkit(["ask", "q?", "--set", "k=99"], home), "outside its range")


@pytest.mark.parametrize("setting,fragment", [
    ("k=abc", "k='abc' is not a number"),  # was a Python traceback
    ("k=4.5", "k=4.5 is not an integer"),  # was accepted, then every question failed inside BM25
    ("kk=4", "did you mean 'k'"),
    ("yes_no_check=maybe", "is not true or false"),
])
def test_knob_values_of_the_wrong_type_are_one_line_errors(home, setting, fragment):
    assert_one_line_error(hopkit(["eval", "--method", "oner", "--n", "1", "--set", setting], home), fragment)


def test_questions_range_is_checked(home):
    assert_one_line_error(hopkit(["eval", "--questions", "80-51"], home), "questions expects A-B")
    assert_one_line_error(hopkit(["eval", "--questions", "900-901"], home), "the dataset has 300 questions")


def test_knobs_verb_prints_effective_paper_and_hopkit_values(home):
    result = hopkit(["knobs", "searchain", "--profile", "paper"], home)
    assert result.returncode == 0, result.stderr
    assert "theta = 0.5 (the reader's calibrated value)" in result.stdout
    assert "answer_from = path   [last_chain | path; hopkit last_chain, paper path; addition]" in result.stdout
    assert_one_line_error(hopkit(["knobs", "ircot", "--set", "cap=0"], home), "outside its range")


def test_optimize_and_saved_program_input_errors(home):
    assert_one_line_error(hopkit(["optimize", "--method", "ircot", "--objectives", "lm_calls,f1", "--demos", "none"],
                                 home), "--objectives must start with the metric")
    assert_one_line_error(hopkit(["eval", "--program", str(home / "no-such-program")], home), "no saved program")
    assert_one_line_error(hopkit(["optimize", "--method", "nor", "--demos", "none"], home), "declares no knobs")
    assert_one_line_error(hopkit(["optimize", "--method", "oner", "--trials", "0"], home), "trials must be at least 1")
    assert_one_line_error(hopkit(["optimize", "--method", "oner", "--demo-threshold", "1.5"], home),
                          "(demo_threshold) must be in (0, 1]")
    assert not (home / "runs" / "optimize").exists()  # refused before a study folder is made
