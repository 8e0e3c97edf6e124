"""Under the ``paper`` profile a program runs its paper's algorithm alone: while it answers, no code of an
additions/ folder (hopkit/additions/, hopkit/programs/searchain/additions/) runs (each addition is a step the program
looks up by its knob, and the paper's rule stands where the knob is off). Under ``hopkit`` the same questions do go
through the additions, so the probe sees them."""

import sys
from pathlib import Path

import pytest
from test_ircot import TableRetriever as IRCoTRetriever
from test_ircot import use_script
from test_searchain import QueryRetriever, TableReader, chain, final
from test_tree_of_reviews import setup as tor_setup

import hopkit
from hopkit.programs.baselines import OneR
from hopkit.programs.ircot import IRCoT
from hopkit.programs.searchain import SearChain

ROOT = Path(hopkit.__file__).parent
ADDITIONS = "additions"  # hopkit/additions/ and a method's own, e.g. hopkit/programs/searchain/additions/
CHECK = {"reasoning": "a thought", "answer": "no"}  # the yes/no check's reply, asked under hopkit only


def files_run(call) -> set[str]:
    """The files of hopkit's additions/ folders whose functions ran during ``call()``."""
    seen: set[str] = set()

    def probe(frame, event, arg):
        path = Path(frame.f_code.co_filename)
        if event == "call" and path.is_relative_to(ROOT) and ADDITIONS in path.relative_to(ROOT).parts[:-1]:
            seen.add(path.name)

    sys.setprofile(probe)
    try:
        call()
    finally:
        sys.setprofile(None)
    return seen


def oner(profile):
    use_script([{"answer": "Velmar"}, CHECK])
    program = OneR(IRCoTRetriever({}, default=["a", "b"]), profile=profile)
    return lambda: program(question="Is Atlas older than Kellis?")


def ircot(profile):
    use_script([{"continuation": "Atlas was made by Kellis."}, {"continuation": "So the answer is: Velmar."},
                {"reasoning": "Kellis lived in Velmar.", "answer": "Velmar"}, CHECK])
    program = IRCoT(IRCoTRetriever({}, default=["a", "b"]), profile=profile)
    return lambda: program(question="Is Atlas older than Kellis?")


def searchain(profile):
    use_script([chain(("Who made Atlas?", "Atlas was made by Kellis."), ("Where was Kellis born?", None), final=""),
                chain(("Who made Atlas?", "Atlas was made by Kellis."), ("Where was Kellis born?", "Morn"),
                      final="Morn"),
                final("Atlas was made by Kellis [1], who was born in Morn [2].", "Morn"),
                final("Morn [1].", "Morn"), CHECK, CHECK])
    reader = TableReader({"Who made Atlas?": ("Kellis", 0.95), "Where was Kellis born?": ("Morn", 0.95)})
    program = SearChain(QueryRetriever(), reader, profile=profile)
    return lambda: program(question="Is Atlas older than Kellis?")


def tree_of_reviews(profile):
    program, _, _ = tor_setup({"A": ("yes", "no", ""), "B": ("yes", "yes", "B answers it.", "Morn")},
                              {"Is Atlas older than Kellis?": ["A", "B"]}, profile=profile)
    return lambda: program(question="Is Atlas older than Kellis?")


@pytest.mark.parametrize("build", [oner, ircot, searchain, tree_of_reviews])
def test_the_paper_profile_runs_no_addition_code(build):
    assert files_run(build("paper")) == set()


@pytest.mark.parametrize("build", [oner, ircot, searchain, tree_of_reviews])
def test_the_probe_sees_the_additions_under_hopkit(build):
    assert files_run(build("hopkit")), "the hopkit profile's answer steps should run"
