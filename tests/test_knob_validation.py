"""One knob check everywhere: Python constructors, build_program and load_program refuse what the CLI refuses,
accept every knob the docs list, and help() shows each class's real signature and knobs."""

import inspect

import pytest

import hopkit
from hopkit.errors import InputError
from hopkit.knobs import KNOBS
from hopkit.programs.registry import build_program


class NoRetriever:
    def retrieve(self, query, k):
        return []


@pytest.mark.parametrize("cls,kwargs,fragment", [
    ("OneR", {"k": 4.5}, "k=4.5 is not an integer"),  # was accepted
    ("OneR", {"k": "8"}, "is not a number"),
    ("IRCoT", {"cap": 0}, "outside its range"),
    ("IRCoT", {"answer_reader": "cott"}, "did you mean 'cot'"),
    ("IRCoT", {"kk": 2}, "did you mean 'k'"),
    ("TreeOfReviews", {"budget": True}, "is not a number"),
    ("SearChain", {"theta": 1.5}, "outside its range"),
])
def test_constructors_refuse_bad_values_in_one_line(cls, kwargs, fragment):
    args = (NoRetriever(), None) if cls == "SearChain" else (NoRetriever(),)
    with pytest.raises(InputError, match=fragment.replace("(", r"\(").replace(")", r"\)")) as error:
        getattr(hopkit, cls)(*args, **kwargs)
    assert "\n" not in str(error.value)


def test_every_declared_knob_is_accepted_by_its_constructor():
    classes = {"oner": hopkit.OneR, "ircot": hopkit.IRCoT, "searchain": hopkit.SearChain, "tor": hopkit.TreeOfReviews}
    for group, cls in classes.items():
        parameters = inspect.signature(cls).parameters
        assert set(KNOBS[group]) <= set(parameters), (group, set(KNOBS[group]) - set(parameters))
    hopkit.IRCoT(NoRetriever(), m_distractors=3)  # raised TypeError before, though the README lists it


def test_build_program_and_the_constructor_check_alike():
    for build in (lambda: build_program("oner", NoRetriever(), k=4.5), lambda: hopkit.OneR(NoRetriever(), k=4.5)):
        with pytest.raises(InputError, match="k=4.5 is not an integer"):
            build()
    with pytest.raises(InputError, match="unknown profile 'papr'"):
        build_program("oner", NoRetriever(), profile="papr")


def test_help_shows_the_real_signature_and_each_knob():
    signature = str(inspect.signature(hopkit.IRCoT))
    assert signature.startswith("(retriever") and "m_distractors" in signature and "profile" in signature
    for cls, group in ((hopkit.IRCoT, "ircot"), (hopkit.SearChain, "searchain"), (hopkit.TreeOfReviews, "tor"),
                       (hopkit.OneR, "oner")):
        for name in KNOBS[group]:
            assert f"    {name}: hopkit " in cls.__doc__, (group, name)
