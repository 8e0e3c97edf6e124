"""The real offline LM (the 0.5B pack, fetched on first use) on a few bundled questions."""


import dspy
import pytest

from hopkit.evaluation.harness import evaluate
from hopkit.evaluation.metrics import get_metric
from hopkit.evaluation.run_log import RunLog
from hopkit.lm.factory import LMSpec, make_lm
from hopkit.lm.model_packs import fetch
from hopkit.programs.registry import build_program
from hopkit.reader.lm_reader import LMReader
from hopkit.retrieval.bm25 import BM25Retriever
from hopkit.retrieval.counting import CountingRetriever

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def offline_lm():
    fetch("qwen0.5b")
    return make_lm(LMSpec(model="local:qwen0.5b", cache=False, max_tokens=128, n_ctx=4096))


def test_oner_answers_bundled_questions_with_accounting(offline_lm, bundled_dev, tmp_path):
    dspy.configure(lm=offline_lm)
    program = build_program("oner", retriever=CountingRetriever(BM25Retriever(bundled_dev.corpus)), k=4)
    metrics = [get_metric("em"), get_metric("recall@15")]
    report = evaluate(program, bundled_dev.examples[:3], metrics, RunLog(tmp_path / "r.jsonl", {}), progress=False)
    rows = RunLog(tmp_path / "r.jsonl", {}).rows
    assert report.n == 3
    for row in rows:
        assert row["error"] is None, row["error"]
        assert isinstance(row["prediction"]["answer"], str)
        assert row["cost"]["lm_calls"] == 1 and row["cost"]["retrievals"] == 1
        assert row["cost"]["prompt_tokens"] > 100 and row["cost"]["completion_tokens"] > 0
        assert len(row["prediction"]["citations"]) == 4
    assert report.metrics["recall@15"] > 0


def test_lm_reader_confidence_comes_from_real_logprobs(offline_lm, bundled_dev):
    dspy.configure(lm=offline_lm)
    example = next(ex for ex in bundled_dev.examples if ex.type == "bridge")
    person = bundled_dev.corpus[example.gold_pids[1]]
    span = LMReader().read(f"Where was {person.title} born?", [person])
    assert span.pid == person.pid
    assert 0.0 <= span.score <= 1.0  # P(the passage answers), from the judgment token's log-probabilities
    if span.located:
        assert person.text[span.start:span.end] == span.text
    elif span.text:  # a paraphrase is not a span of the passage
        assert span.score == 0.0


SHARED = " ".join(f"Paragraph {i}: the Velvet Atlas was printed in the city of Orlen in year {i}." for i in range(40))


def prompt_tokens_of_two_calls(lm) -> tuple[int, int]:
    """Prompt tokens llama.cpp evaluated for two prompts that share a long prefix."""
    before = lm.engine.prompt_eval_tokens
    lm(SHARED + " Question: where was it printed?")
    first = lm.engine.prompt_eval_tokens - before
    lm(SHARED + " Question: in which year was it first printed?")
    return first, lm.engine.prompt_eval_tokens - before - first


def test_the_engine_times_prompt_evaluation_and_does_not_evaluate_a_shared_prefix_twice(offline_lm):
    engine = offline_lm.engine
    before_seconds = engine.prompt_eval_seconds
    first, second = prompt_tokens_of_two_calls(offline_lm)
    assert first > 400  # the whole prompt was evaluated once
    assert 0 < second < first / 4  # the second call evaluated only what follows the shared prefix
    assert engine.prompt_eval_seconds > before_seconds
    assert engine.evaluated_tokens >= engine.prompt_eval_tokens


def test_with_reuse_off_every_prompt_is_evaluated_whole(monkeypatch):
    monkeypatch.setenv("HOPKIT_PREFIX_CACHE_MB", "0")
    monkeypatch.setenv("HOPKIT_REUSE_CONTEXT", "0")
    lm = make_lm(LMSpec(model="local:qwen0.5b", cache=False, max_tokens=8, n_ctx=2048))
    assert lm.engine.reuse_context is False and lm.engine.prefix_cache_bytes == 0
    first, second = prompt_tokens_of_two_calls(lm)
    assert first > 400 and second >= first  # the second prompt is a few tokens longer and shares nothing evaluated
