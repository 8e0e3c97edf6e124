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
