"""The either-or answer-form check: an answer naming one of the question's two options becomes that
option with no call; one naming neither (or both) is decided by one more call; other questions pass."""

import dspy
from dspy.utils import DummyLM

from hopkit.additions.option_check import OptionCheck, named_options
from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.programs.registry import build_program
from hopkit.retrieval.bm25 import BM25Retriever
from hopkit.text.question_form import either_or_options

CORPUS = Corpus([Passage("a", "Velmor", "Velmor is a genus of 40 species of shrubs."),
                 Passage("b", "Ostrag", "Ostrag is a genus of 900 species of herbs.")])
QUESTION = "Which genus has more species, Velmor or Ostrag?"


def test_options_are_read_from_the_questions_wording():
    assert either_or_options(QUESTION) == ("Velmor", "Ostrag")
    assert either_or_options("Which person, Ana Vell or Tom Orrin, wrote more novels?") == ("Ana Vell", "Tom Orrin")
    assert either_or_options("Who was a busier painter Ana Vell or Tom Orrin?") == ("Ana Vell", "Tom Orrin")
    assert either_or_options("Which band has more members Band of Gulls or Live ?") == ("Band of Gulls", "Live")
    assert either_or_options("Which harbour Port Elm Airfield or Kessby Field is closer to the town?") == (
        "Port Elm Airfield", "Kessby Field")
    assert either_or_options("Which opera is longer: Tarn or Mira by Halden") == ("Tarn", "Mira by Halden")
    assert either_or_options("Which is older, rugby or cricket?") == ("rugby", "cricket")
    assert either_or_options("Is Velmor a genus of shrubs?") is None
    assert either_or_options("Who founded Velmor Records?") is None


def test_an_answer_names_an_option_by_all_of_its_words_or_by_a_part_of_one():
    options = ("John Carpenter", "Ana Vell")
    assert named_options("John Howard Carpenter", options) == ["John Carpenter"]
    assert named_options("Carpenter", options) == ["John Carpenter"]
    assert named_options("the Ana Vell", options) == ["Ana Vell"]
    assert named_options("Both John Carpenter and Ana Vell", options) == ["John Carpenter", "Ana Vell"]
    assert named_options("2006", options) == [] and named_options("", options) == []


def test_an_answer_naming_one_option_becomes_it_with_no_call():
    lm = DummyLM([{"answer": "Velmor"}])
    dspy.configure(lm=lm)
    check = OptionCheck()
    assert check(QUESTION, "Ostrag") == ("Ostrag", None)
    assert check(QUESTION, "Ostrag has more species.") == (
        "Ostrag", {"before": "Ostrag has more species.", "after": "Ostrag", "options": ["Velmor", "Ostrag"],
                   "call": False})
    assert check("Who founded Velmor Records?", "2006") == ("2006", None)
    assert lm.history == []


def test_an_answer_naming_neither_is_decided_from_the_reasoning():
    lm = DummyLM([{"answer": "Ostrag"}])
    dspy.configure(lm=lm)
    answer, record = OptionCheck()(QUESTION, "We cannot determine which genus has more species.",
                                   reasoning="Velmor has 40 species; Ostrag has 900.", context=["unused"])
    assert answer == "Ostrag" and record["call"] is True and record["after"] == "Ostrag"
    prompt = lm.history[-1]["messages"][-1]["content"]
    assert "Velmor has 40 species" in prompt and "unused" not in prompt
    assert "We cannot determine" not in prompt  # the answer it replaces is not shown (the 1.5B copies it back)


def test_a_reply_naming_neither_option_keeps_the_answer_and_is_counted():
    dspy.configure(lm=DummyLM([{"answer": "Arbor"}, {"answer": "Arbor"}]))  # the chat reply, then the JSON fallback
    answer, record = OptionCheck()(QUESTION, "white oak")
    assert answer == "white oak" and record["call"] is True and "parse_error" in record


def test_oner_checks_with_its_paragraphs_and_the_knob_turns_it_off():
    lm = DummyLM([{"answer": "900"}, {"answer": "Ostrag"}])
    dspy.configure(lm=lm)
    prediction = build_program("oner", retriever=BM25Retriever(CORPUS), k=2)(question=QUESTION)
    assert prediction.answer == "Ostrag" and prediction.trace["option_check"]["before"] == "900"
    assert "Ostrag is a genus of 900 species" in lm.history[-1]["messages"][-1]["content"]
    dspy.configure(lm=DummyLM([{"answer": "900"}]))
    unchecked = build_program("oner", retriever=BM25Retriever(CORPUS), k=2, option_check=False)(question=QUESTION)
    assert unchecked.answer == "900" and unchecked.trace["option_check"] is None
