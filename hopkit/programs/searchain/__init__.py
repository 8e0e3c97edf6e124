"""SearChain (Xu et al., Search-in-the-Chain): Chain-of-Query, IR verification and completion,
Tree-of-Reasoning, and final content traced to supporting documents."""

from hopkit.programs.searchain.program import SearChain

__all__ = ["SearChain"]
