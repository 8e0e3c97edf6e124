import math

import dspy

from hopkit.data.passage import Passage
from hopkit.lm.accounted import AccountedLM
from hopkit.lm.logprobs import value_confidence
from hopkit.lm.usage import usage_scope
from hopkit.reader.lm_reader import LMReader
from scripted_engine import ScriptedEngine

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
        span = LMReader().read("Where was Orvan Kellis born?", PASSAGES)
    assert (span.text, span.pid) == ("Port Velmar", "p1")
    assert PASSAGES[0].text[span.start:span.end] == "Port Velmar"
    assert math.isclose(span.score, math.exp(-0.1))
    assert all(r.config.logprobs is not None for r in engine.requests)
    assert usage.lm_calls == 2 and usage.prompt_tokens == 200


def test_a_paraphrased_span_is_kept_but_scores_zero():
    _use(ScriptedEngine([{"span": "the city of Velmar"}]))
    span = LMReader().read("Where?", PASSAGES[:1])
    assert span.text == "the city of Velmar" and span.score == 0.0 and not span.located


def test_case_and_spacing_differences_still_locate():
    _use(ScriptedEngine([{"span": "port  velmar"}]))
    span = LMReader().read("Where?", PASSAGES[:1])
    assert span.located and span.text == "Port Velmar"


def test_read_batch_reads_each_question():
    _use(ScriptedEngine([{"span": "1873"}, {"span": "Tarvania"}]))
    spans = LMReader().read_batch([("When?", PASSAGES[:1]), ("Which country?", PASSAGES[1:])])
    assert [s.text for s in spans] == ["1873", "Tarvania"]
