"""Self-Ask (Press et al., 2023): follow-up questions, answered with retrieval, before the final answer."""

from hopkit.programs.self_ask.program import SelfAsk

__all__ = ["SelfAsk"]
