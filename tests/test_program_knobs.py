"""Each program names a knob where it uses it, and nowhere else: its constructor takes ``**knobs``, checked and
resolved once into ``self.knobs``; the signature ``help()`` shows is generated from the declarations."""

import ast
import inspect
from pathlib import Path

import pytest

import hopkit
from hopkit.errors import InputError
from hopkit.knobs.declared import KNOBS
from hopkit.programs.baselines import OneR
from hopkit.programs.ircot import IRCoT
from hopkit.programs.searchain import SearChain
from hopkit.programs.tree_of_reviews import TreeOfReviews

ROOT = Path(hopkit.__file__).parent
PROGRAM_FILES = {"oner": "programs/baselines/program.py", "ircot": "programs/ircot/program.py",
                 "searchain": "programs/searchain/program.py", "tor": "programs/tree_of_reviews/program.py"}


def knob_mentions(source: str, names: set[str]) -> dict[str, int]:
    """Where the code names a knob: a string equal to its name, an attribute of that name (``knobs.k``,
    ``self.k``), a keyword argument or a parameter (a node's own field, ``node.depth``, is not the knob)."""
    counts = dict.fromkeys(names, 0)
    for node in ast.walk(ast.parse(source)):
        name = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        elif isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Attribute)):
            owner = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
            name = node.attr if owner in ("self", "knobs") else None
        elif isinstance(node, ast.keyword):
            name = node.arg
        elif isinstance(node, ast.arg):
            name = node.arg
        if name in counts:
            counts[name] += 1
    return counts


@pytest.mark.parametrize("group", sorted(PROGRAM_FILES))
def test_no_program_file_names_a_knob_more_than_twice(group):
    counts = knob_mentions((ROOT / PROGRAM_FILES[group]).read_text(encoding="utf-8"), set(KNOBS[group]))
    assert {name: n for name, n in counts.items() if n > 2} == {}


def test_the_mention_count_sees_every_way_of_naming_a_knob():
    source = "def f(k):\n    g(k=1)\n    self.k\n    knobs.k\n    d['k']\n    node.k\n"
    assert knob_mentions(source, {"k"}) == {"k": 5}


@pytest.mark.parametrize("cls, group", [(OneR, "oner"), (IRCoT, "ircot"), (SearChain, "searchain"),
                                        (TreeOfReviews, "tor")])
def test_the_signature_shows_every_declared_knob(cls, group):
    parameters = inspect.signature(cls).parameters
    for name in KNOBS[group]:
        assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY and parameters[name].default is None
    assert "knobs" not in parameters and "k" in (cls.__doc__ or "")


class _NoRetrieval:
    def retrieve(self, query, k):
        return []


def test_a_knob_is_checked_and_read_back_once():
    retriever = _NoRetrieval()
    program = IRCoT(retriever, k=3, profile="paper")
    assert program.knobs.k == 3 and program.knobs["k"] == 3 and dict(program.knobs)["max_steps"] >= 1
    with pytest.raises(AttributeError, match="read-only"):
        program.knobs.k = 5
    with pytest.raises(InputError, match="outside its range"):
        IRCoT(retriever, k=999)
