"""The date comparison (an addition): questions that compare two options by date, read from real 2Wiki and
HotpotQA shapes; dates in the usual English forms; the dates a reasoning states for each option, through a linked
person; and the step, which acts only when it is sure."""

from __future__ import annotations

import pytest

from hopkit.additions.date_comparison import DateComparison
from hopkit.additions.stated_dates import stated_dates
from hopkit.knobs import KNOBS
from hopkit.knobs.profiles import profile_values
from hopkit.programs.answer_steps import AnswerSteps
from hopkit.text.temporal import compare_dates, parse_date, temporal_comparison, temporal_direction


@pytest.mark.parametrize("question, direction", [
    ("Which film came out first, Danger: Diabolik or Goodbye, Mr. Chips?", "earliest"),
    ("Which film has the director who died later, What Will You Do When You Catch Me? or School On Fire?", "latest"),
    ("Which film was released more recently, Boundaries Of The Heart or Truck Turner?", "latest"),
    ("Which film has the director who is older than the other, One Woman To Another or Come On, Rangers?",
     "earliest"),
    ("Which film whose director is younger, Forbidden Ground or Free Guy?", "latest"),
    ("Was Jovita Carranza or Fidel Kuri Grajales born first?", "earliest"),
    ("Who was born first out of Ulf Merbold and Mirosław Hermaszewski?", "earliest"),
    ("Which canal began operating first, the Carondelet Canal or the Miami and Erie Canal?", "earliest"),
    ("Which band was formed first, Lit or Adorable?", "earliest"),
    ("Who was the first Russian composer to make a lasting impression internationally, Alessandro Scarlatti or "
     "Pyotr Ilyich Tchaikovsky?", None),
    ("Which genus has more species, Salvia or Arachis?", None),
    ("What is the last name of the director of Dead Or Alive?", None),
])
def test_a_comparison_by_date_is_read_from_the_question(question, direction):
    assert temporal_direction(question) == direction


def test_the_event_decides_which_sentences_count():
    assert "died" in temporal_comparison("Who died first, Bryce Courtenay or Juan Carlos Onetti?")[1]
    assert "born" in temporal_comparison("Which tennis player is younger, John Newcombe or Květa Peschke?")[1]
    assert "released" in temporal_comparison("Which album came out first, Tranquility Base or Zvezdopad?")[1]


@pytest.mark.parametrize("text, date", [
    ("15 October 1863", (1863, 10, 15)), ("May 21, 1834", (1834, 5, 21)), ("1127", (1127, None, None)),
    ("c. 1127", (1127, None, None)), ("44 BC", (-44, None, None)), ("March 1999", (1999, 3, None)),
    ("It was released on 21st of June, 1961.", (1961, 6, 21)), ("2001-09-11", (2001, 9, 11)),
    ("the 1970s", None), ("unknown", None), ("born 1 May 1900, died 1980", None),
])
def test_dates_in_the_usual_english_forms(text, date):
    assert parse_date(text) == date


def test_dates_compare_only_as_far_as_both_are_precise():
    assert compare_dates((1986, None, None), (1958, None, None)) == 1
    assert compare_dates((1988, 8, 19), (1988, 8, 11)) == 1
    assert compare_dates((1988, None, None), (1988, 8, 11)) is None
    assert compare_dates((-44, None, None), (79, None, None)) == -1


DIRECTORS = ("What Will You Do When You Catch Me? was directed by Paul Scharfe. Paul Scharfe died on 29 July 1942. "
             "School on Fire was directed by Ringo Lam. Ringo Lam died on December 29, 2018. Thus, Paul Scharfe died "
             "later than Ringo Lam. So the answer is: What Will You Do When You Catch Me?")


def test_a_linked_persons_date_stands_for_the_option_and_a_conclusion_is_not_read():
    options = ("What Will You Do When You Catch Me?", "School On Fire")
    assert stated_dates(DIRECTORS, options) == [(1942, 7, 29), (2018, 12, 29)]


def test_a_date_of_another_kind_of_event_does_not_count():
    reasoning = "Bryce Courtenay was born in 1933. Juan Carlos Onetti was born in 1909."
    options = ("Bryce Courtenay", "Juan Carlos Onetti")
    assert stated_dates(reasoning, options, frozenset({"died", "death"})) == [None, None]
    assert stated_dates(reasoning, options, frozenset({"born"})) == [(1933, None, None), (1909, None, None)]


def test_the_step_puts_the_reasonings_own_dates_in_order():
    step = DateComparison()
    question = "Which film has the director who died later, What Will You Do When You Catch Me? or School On Fire?"
    answer, record = step(question, "What Will You Do When You Catch Me?", DIRECTORS)
    assert answer == "School On Fire" and record["before"] != record["after"] and record["call"] is False
    released = ("Grandi magazzini was released in 1986. Krudt Og Klunker was released in 1958. Thus, Grandi "
                "Magazzini was released earlier.")
    answer, _ = step("Which film was released earlier, Grandi Magazzini or Krudt Og Klunker?", "Grandi Magazzini",
                     released)
    assert answer == "Krudt Og Klunker"


def test_the_step_leaves_the_answer_when_it_is_unsure_or_has_nothing_to_read():
    step = DateComparison()
    question = "Which film was released earlier, Grandi Magazzini or Krudt Og Klunker?"
    answer, record = step(question, "Grandi Magazzini", "Grandi magazzini was released in 1986.")
    assert answer == "Grandi Magazzini" and record["unsure"]
    same_year = "Grandi magazzini was released in 1986. Krudt Og Klunker was released in 1986."
    assert step(question, "Grandi Magazzini", same_year)[1]["unsure"] == "the dates do not tell the options apart"
    assert step(question, "Grandi Magazzini", "") == ("Grandi Magazzini", None)  # a direct reader: no reasoning
    assert step("Which genus has more species, Salvia or Arachis?", "Salvia", "Salvia has 900.") == ("Salvia", None)


def test_the_step_is_an_addition_on_in_hopkit_off_in_the_paper_profile_for_every_method_with_answer_steps():
    for group in ("oner", "ircot", "searchain", "tor"):
        assert KNOBS[group]["date_comparison"].addition
        assert profile_values(group, "hopkit")["date_comparison"] is True
        assert profile_values(group, "paper")["date_comparison"] is False
    assert AnswerSteps(option_check=True, date_comparison=True).names == ["option_check", "date_comparison"]


def test_the_replay_applies_the_step_to_a_logged_answer_and_rescores_it():
    from hopkit.report.replay import replay as replay_step

    def replay(rows):
        return replay_step(rows, "date_comparison")

    row = {"qid": "q1", "question": "Which film was released earlier, Grandi Magazzini or Krudt Og Klunker?",
           "answers": ["Krudt Og Klunker"], "gold_pids": ["a", "b"],
           "prediction": {"answer": "Grandi Magazzini", "retrieved": ["a", "b"]},
           "metrics": {"em": 0.0, "f1": 0.0}, "cost": {"lm_calls": 4},
           "trace": {"method": "ircot", "reader": "cot", "chain": [], "reader_output": {
               "generation": "Grandi magazzini was released in 1986. Krudt Og Klunker was released in 1958."}}}
    untouched = {**row, "qid": "q2", "question": "Who directed Krudt Og Klunker?"}
    paper = {**row, "qid": "q3", "trace": {**row["trace"], "profile": "paper"}}
    rows, counts = replay([row, untouched, paper])
    assert rows[0]["prediction"]["answer"] == "Krudt Og Klunker" and rows[0]["metrics"] == {"em": 1.0, "f1": 1.0}
    assert rows[1] is untouched and rows[2] is paper
    assert counts == {"questions": 3, "read": 1, "changed": 1, "wrong_to_right": 1, "right_to_wrong": 0}


def test_oner_with_a_cot_reader_orders_the_dates_its_thought_states_and_the_knob_turns_it_off():
    import dspy
    from dspy.utils import DummyLM

    from hopkit.data.corpus import Corpus
    from hopkit.data.passage import Passage
    from hopkit.programs.registry import build_program
    from hopkit.retrieval.bm25 import BM25Retriever

    corpus = Corpus([Passage("a", "Tarn Hollow", "Tarn Hollow is a film released in 1986."),
                     Passage("b", "Mira Vale", "Mira Vale is a film released in 1958.")])
    question = "Which film was released earlier, Tarn Hollow or Mira Vale?"
    thought = "Tarn Hollow was released in 1986. Mira Vale was released in 1958. Thus Tarn Hollow came first."
    dspy.configure(lm=DummyLM([{"reasoning": thought, "answer": "Tarn Hollow"}]))
    prediction = build_program("oner-cot", retriever=BM25Retriever(corpus), k=2)(question=question)
    assert prediction.answer == "Mira Vale"
    assert prediction.trace["date_comparison"]["dates"] == [[1986, None, None], [1958, None, None]]
    dspy.configure(lm=DummyLM([{"reasoning": thought, "answer": "Tarn Hollow"}]))
    unchanged = build_program("oner-cot", retriever=BM25Retriever(corpus), k=2, date_comparison=False)(
        question=question)
    assert unchanged.answer == "Tarn Hollow" and unchanged.trace["date_comparison"] is None


def test_two_facts_joined_by_while_are_read_apart():
    reasoning = ("The film Boundaries of the Heart was released in 1988, while Truck Turner was released in 1974. "
                 "So the answer is: Truck Turner.")
    options = ("Boundaries Of The Heart", "Truck Turner")
    assert stated_dates(reasoning, options) == [(1988, None, None), (1974, None, None)]
    question = "Which film was released more recently, Boundaries Of The Heart or Truck Turner?"
    assert DateComparison()(question, "Truck Turner", reasoning)[0] == "Boundaries Of The Heart"


def test_a_sentence_that_starts_with_a_year_is_read_apart_from_the_one_before():
    """The sentence splitter does not start a sentence at a number: "born on May 2, 1898. 1947 is earlier than
    1898, so ..." would read as one sentence naming both sides, and the option's date would be lost."""
    reasoning = ("Tarn Hollow was directed by Ada Pell. Ada Pell was born on 23 May 1947. Mill Lane was directed by "
                 "Oren Vask. Oren Vask was born on February 17, 1898. 1947 is earlier than 1898, so the director of "
                 "Tarn Hollow was born first. So the answer is: Tarn Hollow.")
    options = ("Tarn Hollow", "Mill Lane")
    assert stated_dates(reasoning, options) == [(1947, 5, 23), (1898, 2, 17)]
    question = "Which film has the director who was born first, Tarn Hollow or Mill Lane?"
    assert DateComparison()(question, "Tarn Hollow", reasoning)[0] == "Mill Lane"
    decimal = "Tarn Hollow was released in 1998. Mill Lane drew 1.5 million viewers and was released in 1990."
    assert stated_dates(decimal, options) == [(1998, None, None), (1990, None, None)]  # "1.5" is not cut
