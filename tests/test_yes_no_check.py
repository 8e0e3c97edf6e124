"""The yes/no answer-form check: a value answer to a yes/no question is decided by one more call; any
other answer passes with no call."""

import dspy
from dspy.utils import DummyLM

from hopkit.additions.yes_no_check import YesNoCheck, facts_of, verdict_of
from hopkit.data.corpus import Corpus
from hopkit.data.passage import Passage
from hopkit.evaluation.trace_stats import stats_of
from hopkit.programs.ircot import IRCoT
from hopkit.programs.registry import build_program
from hopkit.retrieval.bm25 import BM25Retriever

CORPUS = Corpus([Passage("a", "The Bomb", "The Bomb is a 1987 album."),
                 Passage("b", "Rolling Papers", "Rolling Papers is a 2011 album.")])


def test_verdicts_are_read_from_the_first_word():
    assert verdict_of("Yes.") == "yes" and verdict_of("no, they were not") == "no"
    assert verdict_of("2011") is None and verdict_of("Nobody") is None and verdict_of("") is None


def test_a_value_answer_to_a_yes_no_question_is_decided_from_the_reasoning():
    lm = DummyLM([{"reasoning": "1987 is not 2011.", "answer": "no"}])
    dspy.configure(lm=lm)
    answer, record = YesNoCheck()("Were The Bomb and Rolling Papers released in the same year?", "2011",
                                  reasoning="The Bomb came out in 1987 and Rolling Papers in 2011. "
                                            "So the answer is: 2011.",
                                  context=["ignored when the reasoning states the facts"])
    assert answer == "no" and record == {"before": "2011", "after": "no", "call": True}
    prompt = lm.history[-1]["messages"][-1]["content"]
    assert "Rolling Papers in 2011." in prompt and "ignored when" not in prompt
    assert "So the answer is" not in prompt


def test_the_facts_leave_out_the_readers_concluding_value():
    assert facts_of("A is 749 feet tall, B 628 feet. So the answer is: 749 feet.") == "A is 749 feet tall, B 628 feet."
    assert facts_of("A and B are both British.") == "A and B are both British."
    assert facts_of("So the answer is: 749 feet.") == "So the answer is: 749 feet."  # nothing else to give


def test_with_no_reasoning_the_call_reads_the_paragraphs():
    lm = DummyLM([{"reasoning": "Both came out in 2011.", "answer": "yes"}])
    dspy.configure(lm=lm)
    answer, _ = YesNoCheck()("Were A and B released in the same year?", "2011", context=["A is a 2011 album."])
    assert answer == "yes" and "A is a 2011 album." in lm.history[-1]["messages"][-1]["content"]


def test_other_questions_and_verdict_answers_make_no_call():
    lm = DummyLM([{"answer": "no"}])
    dspy.configure(lm=lm)
    check = YesNoCheck()
    assert check("Which album came first, The Bomb or Rolling Papers?", "The Bomb") == ("The Bomb", None)
    assert check("Is The Bomb older?", "yes") == ("yes", None)
    assert check("Is The Bomb older?", "Yes, by 24 years.") == (
        "yes", {"before": "Yes, by 24 years.", "after": "yes", "call": False})
    assert lm.history == []


def test_an_undecided_check_keeps_the_readers_answer_and_says_so():
    dspy.configure(lm=DummyLM([{"reasoning": "Unclear.", "answer": "maybe"}]))
    answer, record = YesNoCheck()("Is The Bomb older?", "1987")
    assert answer == "1987" and record["unresolved"] is True


def test_oner_checks_with_its_paragraphs_and_the_knob_turns_it_off():
    question = "Were The Bomb and Rolling Papers released in the same year?"
    lm = DummyLM([{"answer": "2011"}, {"reasoning": "1987 and 2011 differ.", "answer": "no"}])
    dspy.configure(lm=lm)
    prediction = build_program("oner", retriever=BM25Retriever(CORPUS), k=2)(question=question)
    assert prediction.answer == "no" and prediction.trace["yes_no_check"]["before"] == "2011"
    assert "Rolling Papers is a 2011 album." in lm.history[-1]["messages"][-1]["content"]
    dspy.configure(lm=DummyLM([{"answer": "2011"}]))
    unchecked = build_program("oner", retriever=BM25Retriever(CORPUS), k=2, yes_no_check=False)(question=question)
    assert unchecked.answer == "2011" and unchecked.trace["yes_no_check"] is None


def test_ircot_checks_its_readers_answer_and_counts_the_call():
    question = "Were The Bomb and Rolling Papers released in the same year?"
    lm = DummyLM([{"continuation": "So the answer is: 2011."},
                  {"reasoning": "The Bomb is from 1987 and Rolling Papers from 2011.", "answer": "2011"},
                  {"reasoning": "1987 and 2011 differ.", "answer": "no"}])
    dspy.configure(lm=lm)
    prediction = IRCoT(BM25Retriever(CORPUS), k=2, answer_reader="cot")(question=question)
    assert prediction.answer == "no"
    assert prediction.trace["reader_output"]["yes_no_check"]["before"] == "2011"
    assert stats_of(prediction.trace)["yes_no_checks"] == 1


def test_a_sentence_restating_the_claim_is_read_with_no_call():
    from hopkit.additions.restatement import restated_verdict

    lm = DummyLM([{"answer": "no"}])  # the call would say no; it must not be made
    dspy.configure(lm=lm)
    question = "Are both Delmer Daves and Jean-Pierre Jeunet film directors?"
    answer, record = YesNoCheck()(question, "Delmer Daves and Jean-Pierre Jeunet are both film directors.")
    assert answer == "yes" and record["call"] is False and record["restated"] and not lm.history
    assert restated_verdict(question, "Delmer Daves and Jean-Pierre Jeunet aren't both film directors.") == "no"
    # not a restatement: a value, or a sentence about something else, still goes to the call
    assert restated_verdict("Were The Bomb and Rolling Papers released in the same year?", "2011") is None
    assert restated_verdict("Are Ian Brown and Dee Snider both actors?",
                            "Ian Brown is an actor, while Dee Snider is a singer.") is None
    assert restated_verdict("Which came first, A or B?", "A came first before B did.") is None


def test_a_restatement_negates_only_with_a_negation_the_question_lacks():
    from hopkit.additions.restatement import restated_verdict

    assert restated_verdict("Is Atlas not a film?", "Atlas is not a film.") == "yes"
    assert restated_verdict("Are A and B both directors?", "A and B are not both directors.") == "no"
    assert restated_verdict("Are A and B both directors?", "A and B are not only directors, both directors.") == "yes"


def test_a_long_name_is_not_a_sentence_for_the_short_form_step():
    from hopkit.additions.short_form import is_sentence

    assert is_sentence("Lawson has more members than American Music Club.")
    assert not is_sentence("the University of New Mexico at Albuquerque")
    assert not is_sentence("Friedrich Wilhelm, Duke of Schleswig-Holstein")
