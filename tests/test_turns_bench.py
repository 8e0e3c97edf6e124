"""``hopkit bench-turns``: two processes calling the local LM at once, side by side and taking turns, against one
alone."""

import pytest

from hopkit.cli.main import main
from hopkit.lm.turns_bench import TurnsMode, format_turns, run_mode


def test_each_mode_is_read_against_one_process_alone():
    table = format_turns([TurnsMode("alone", 1, 8, 16.0, 0.0), TurnsMode("side by side", 2, 16, 128.0, 0.0),
                          TurnsMode("turns", 2, 16, 33.0, 15.5)]).splitlines()
    assert table[2] == "| alone | 1 | 8 | 16.0 | 0.500 | 1.00 | 0.0 |"
    assert table[3] == "| side by side | 2 | 16 | 128.0 | 0.125 | 0.25 | 0.0 |"
    assert table[4] == "| turns | 2 | 16 | 33.0 | 0.485 | 0.97 | 15.5 |"


def test_a_mode_it_does_not_know_is_refused(capsys):
    assert main(["bench-turns", "--modes", "alone,paired"]) == 2
    assert "--modes takes alone, side by side, turns" in capsys.readouterr().err


@pytest.mark.slow
def test_two_processes_take_turns_on_the_real_model():
    from hopkit.lm.model_packs import fetch

    model = fetch("qwen0.5b")
    result = run_mode("turns", model, calls=1, words=20, load_seconds=20.0)
    assert (result.processes, result.calls) == (2, 2) and result.seconds > 0
    assert result.waited > 0  # the processes started together, so one waited for the other's call
