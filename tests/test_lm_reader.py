import math

import dspy
from scripted_engine import ScriptedEngine

from hopkit.data.passage import Passage
from hopkit.lm.accounted import AccountedLM
from hopkit.lm.logprobs import value_confidence
from hopkit.lm.usage import usage_scope
from hopkit.reader.lm_reader import LMReader

PASSAGES = [Passage("p1", "Orvan Kellis", "Orvan Kellis is a novelist born in Port Velmar in 1873."),
            Passage("p2", "Port Velmar", "Port Velmar is a city in Tarvania.")]


def _use(engine):
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))


def test_confidence_is_the_geometric_mean_probability_of_the_value_tokens():
    logprobs = {"content": [{"token": "x", "logprob": -5.0}, {"token": " Port", "logprob": -0.2},
                            {"token": " Velmar", "logprob": -0.4}, {"token": "\n", "logprob": -3.0}]}
    assert value_confidence(logprobs, "Port Velmar") == math.exp(-0.3)
    assert value_confidence(logprobs, "Tarvania") is None
    assert value_confidence(None, "Port Velmar") is None


def test_reader_locates_the_span_and_scores_it_from_logprobs():
    engine = ScriptedEngine([{"span": "Port Velmar"}, {"span": "NONE"}], logprob=-0.1)
    _use(engine)
    with usage_scope() as usage:
        span = LMReader(confidence="span").read("Where was Orvan Kellis born?", PASSAGES)
    assert (span.text, span.pid) == ("Port Velmar", "p1")
    assert PASSAGES[0].text[span.start:span.end] == "Port Velmar"
    assert math.isclose(span.score, math.exp(-0.1))
    assert all(r.config.logprobs is not None for r in engine.requests)
    assert usage.lm_calls == 2 and usage.prompt_tokens == 200


def test_a_paraphrased_span_is_kept_but_scores_zero():
    _use(ScriptedEngine([{"span": "the city of Velmar"}]))
    span = LMReader(confidence="span").read("Where?", PASSAGES[:1])
    assert span.text == "the city of Velmar" and span.score == 0.0 and not span.located


def test_case_and_spacing_differences_still_locate():
    _use(ScriptedEngine([{"span": "port  velmar"}]))
    span = LMReader(confidence="span").read("Where?", PASSAGES[:1])
    assert span.located and span.text == "Port Velmar"


def test_read_batch_reads_each_question():
    _use(ScriptedEngine([{"span": "1873"}, {"span": "Tarvania"}]))
    spans = LMReader(confidence="span").read_batch([("When?", PASSAGES[:1]), ("Which country?", PASSAGES[1:])])
    assert [s.text for s in spans] == ["1873", "Tarvania"]


def test_answerability_is_the_probability_of_the_true_judgment():
    engine = ScriptedEngine([{"answers": "True", "span": "Port Velmar"}],
                            alternatives={"True": [("True", math.log(0.6)), ("False", math.log(0.2)), ("[", -5.0)]})
    _use(engine)
    span = LMReader().read("Where was Orvan Kellis born?", PASSAGES[:1])
    assert span.text == "Port Velmar" and math.isclose(span.score, 0.75)
    assert engine.requests[0].config.logprobs is not None


def test_a_false_judgment_without_alternatives_scores_one_minus_its_probability():
    _use(ScriptedEngine([{"answers": "False", "span": "NONE"}], logprob=math.log(0.9)))
    span = LMReader().read("Where was Orvan Kellis born?", PASSAGES[1:])
    assert span.text == "" and math.isclose(span.score, 0.1)


def test_a_span_that_repeats_the_query_scores_zero_however_sure_the_judgment():
    _use(ScriptedEngine([{"answers": "True", "span": "Orvan Kellis"}], logprob=-0.01))
    span = LMReader().read("What was the profession of Orvan Kellis?", PASSAGES[:1])
    assert span.text == "Orvan Kellis" and span.located and span.score == 0.0


def test_the_judgment_ranks_passages_the_old_span_probability_cannot():
    # both spans are written with the same token probabilities; only the judgment separates them
    engine = ScriptedEngine([{"answers": "False", "span": "1873"}, {"answers": "True", "span": "Tarvania"}],
                            alternatives={"True": [("True", math.log(0.9)), ("False", math.log(0.1))],
                                          "False": [("False", math.log(0.8)), ("True", math.log(0.2))]})
    _use(engine)
    span = LMReader().read("Which country is Port Velmar in?", PASSAGES)
    assert span.text == "Tarvania" and math.isclose(span.score, 0.9)


def test_a_reader_output_that_does_not_parse_is_marked_failed_not_raised():
    _use(ScriptedEngine([{"nonsense": "x"}, {"nonsense": "x"}, {"nonsense": "x"}]))
    span = LMReader().read("Where?", PASSAGES[:1])
    assert span.failed and span.score is None and span.text == ""


def test_repeats_query_reads_normalised_words():
    from hopkit.reader.lm_reader import repeats_query

    assert repeats_query("the Orvan Kellis", "Who is Orvan Kellis?")
    assert not repeats_query("Port Velmar", "Where was Orvan Kellis born?")
    assert not repeats_query("", "Where?")


def test_unknown_confidence_is_refused():
    import pytest

    from hopkit.errors import InputError
    from hopkit.reader.loading import open_reader

    with pytest.raises(InputError, match="lm:span"):
        open_reader("lm:logits")
    assert open_reader("lm:span").confidence == "span" and open_reader("lm").confidence == "answerability"
