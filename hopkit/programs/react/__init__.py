"""ReAct (Yao et al., 2023): reasoning and acting, with search as the action."""

from hopkit.programs.react.program import ReAct

__all__ = ["ReAct"]
