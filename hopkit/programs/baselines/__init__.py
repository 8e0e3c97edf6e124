"""The IRCoT paper's baselines: NoR (no retrieval) and OneR (one retrieval with the question)."""

from hopkit.programs.baselines.program import NoR, OneR

__all__ = ["NoR", "OneR"]
