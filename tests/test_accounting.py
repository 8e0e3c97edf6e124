"""LM calls are accounted per question; an answer served from DSPy's cache counts as a cache hit."""

import dspy
from scripted_engine import ScriptedEngine

from hopkit.lm.accounted import AccountedLM
from hopkit.lm.usage import usage_scope


def test_a_repeated_call_is_a_cache_hit_with_no_tokens():
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True)
    dspy.configure(lm=AccountedLM("local/scripted", engine=ScriptedEngine([{"answer": "a"}]), cache=True))
    predict = dspy.Predict("question -> answer")
    costs = []
    for _ in range(2):
        with usage_scope() as usage:
            predict(question="q")
        costs.append(usage.to_dict())
    assert (costs[0]["lm_calls"], costs[0]["cache_hits"], costs[0]["prompt_tokens"]) == (1, 0, 100)
    assert (costs[1]["lm_calls"], costs[1]["cache_hits"], costs[1]["prompt_tokens"]) == (1, 1, 0)


def test_the_prefix_cache_counts_the_logits_each_state_carries():
    import numpy as np
    from llama_cpp.llama import LlamaState

    from hopkit.lm.prefix_cache import BoundedRAMCache

    cache = BoundedRAMCache(capacity_bytes=3 * 1_000_000)
    for i in range(5):  # 1 MB of KV but 4 MB of logits each: only the newest state fits
        state = LlamaState(input_ids=np.zeros(10, dtype=np.intc), scores=np.zeros((1000, 1000), dtype=np.single),
                           n_tokens=10, llama_state=b"", llama_state_size=1_000_000, seed=0)
        cache[(i,)] = state
    assert len(cache.cache_state) <= 1 and cache.cache_size <= 5_000_100


def test_a_replayed_call_costs_what_computing_it_did():
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True)
    dspy.configure(lm=AccountedLM("local/scripted", engine=ScriptedEngine([{"answer": "b"}]), cache=True))
    predict = dspy.Predict("question -> answer")
    costs = []
    for _ in range(2):
        with usage_scope() as usage:
            predict(question="another q")
        costs.append(usage.to_dict())
    assert costs[1]["cache_hits"] == 1 and costs[1]["prompt_tokens"] == 0
    assert costs[1]["computed"]["prompt_tokens"] == costs[0]["computed"]["prompt_tokens"] == 100
    assert costs[1]["computed"]["uncosted_hits"] == 0


def test_rerunning_a_finished_evaluation_prints_the_first_runs_cost(tmp_path):
    from hopkit.data.examples import make_example
    from hopkit.evaluation.harness import evaluate, format_report
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog

    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True)
    dspy.configure(lm=AccountedLM("local/scripted", engine=ScriptedEngine([{"answer": "Morn"}] * 3), cache=True))
    read = dspy.Predict("question -> answer")

    def predict(question):
        return dspy.Prediction(answer=read(question=question).answer, citations=[], retrieved=[], trace={})

    examples = [make_example(f"q{i}", f"Where was maker {i} born?", ["Morn"], []) for i in range(3)]
    metrics = [get_metric("em"), get_metric("f1")]
    tables = []
    for name in ("first", "rerun"):
        report = evaluate(predict, examples, metrics, RunLog(tmp_path / f"{name}.jsonl", {}), progress=False)
        tables.append(format_report(report, "run").splitlines())
    rerun_rows = RunLog(tmp_path / "rerun.jsonl", {}).rows
    assert all(row["cost"]["cache_hits"] == 1 and row["cost"]["prompt_tokens"] == 0 for row in rerun_rows)
    first, rerun = (dict(zip(t[0].split(" | "), t[2].split(" | "))) for t in tables)
    for column in ("LM calls/q", "tok in/q", "tok out/q"):
        assert first[column] == rerun[column], column
    # seconds as computed: each replayed call's first computation, plus this run's own time outside the LM (which
    # a loaded machine stretches in either run: a loose bound, as this is no timing test)
    assert abs(float(first["s/q"]) - float(rerun["s/q"])) < 0.25
    assert first["cached/q"] == "0.00" and rerun["cached/q"] == "1.00"


def test_a_call_made_outside_any_question_is_replayed_at_its_cost():
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True)
    dspy.configure(lm=AccountedLM("local/scripted", engine=ScriptedEngine([{"answer": "c"}]), cache=True))
    predict = dspy.Predict("question -> answer")
    predict(question="asked before the evaluation")  # no usage scope, as `hopkit demo` asks its first questions
    with usage_scope() as usage:
        predict(question="asked before the evaluation")
    cost = usage.to_dict()
    assert cost["cache_hits"] == 1
    assert cost["computed"]["prompt_tokens"] == 100 and cost["computed"]["uncosted_hits"] == 0


def test_an_output_cut_at_max_tokens_is_counted_and_the_table_says_so(tmp_path):
    import dataclasses

    from hopkit.data.examples import make_example
    from hopkit.evaluation.harness import evaluate, format_report
    from hopkit.evaluation.metrics import get_metric
    from hopkit.evaluation.run_log import RunLog

    engine = ScriptedEngine([{"answer": "Morn"}, {"answer": "Morn"}])
    complete = engine.complete
    replies = iter(["length", "stop"])  # the first question's output stops at max_tokens, the second's does not
    engine.complete = lambda request: dataclasses.replace(complete(request), finish_reason=next(replies))
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)
    dspy.configure(lm=AccountedLM("local/scripted", engine=engine, cache=False))
    read = dspy.Predict("question -> answer")

    def predict(question):
        return dspy.Prediction(answer=read(question=question).answer, citations=[], retrieved=[], trace={})

    examples = [make_example(f"q{i}", f"Where was maker {i} born?", ["Morn"], []) for i in range(2)]
    report = evaluate(predict, examples, [get_metric("em")], RunLog(tmp_path / "run.jsonl", {}), progress=False)
    assert [row["cost"]["truncated"] for row in RunLog(tmp_path / "run.jsonl", {}).rows] == [1, 0]
    assert "LM outputs cut at max_tokens: 1 of 2 calls" in format_report(report, "run")


def test_openai_style_responses_report_a_cut_on_their_choices():
    from hopkit.lm.accounted import _stopped_at_max_tokens

    assert _stopped_at_max_tokens({"choices": [{"finish_reason": "length"}]})
    assert not _stopped_at_max_tokens({"choices": [{"finish_reason": "stop"}]})
    assert not _stopped_at_max_tokens(None)
