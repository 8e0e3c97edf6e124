"""LM calls are accounted per question; an answer served from DSPy's cache counts as a cache hit."""

import dspy

from hopkit.lm.accounted import AccountedLM
from hopkit.lm.usage import usage_scope
from scripted_engine import ScriptedEngine


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
