"""llama.cpp's prefix KV cache, with its memory counted in full.

``LlamaRAMCache`` bounds its size by the KV state alone, but every saved state also holds a copy
of the context's logits buffer (n_batch x vocabulary floats: about 300 MB for Qwen's 152k-token
vocabulary). With many distinct prompts a "2 GiB" cache grew past 24 GB and the process was
killed. This cache counts the logits and token ids too, so its capacity is what it really holds.
"""

from __future__ import annotations

from llama_cpp.llama_cache import LlamaRAMCache


def state_bytes(state) -> int:
    return int(state.llama_state_size) + int(state.scores.nbytes) + int(state.input_ids.nbytes)


class BoundedRAMCache(LlamaRAMCache):
    @property
    def cache_size(self) -> int:
        return sum(state_bytes(state) for state in self.cache_state.values())
