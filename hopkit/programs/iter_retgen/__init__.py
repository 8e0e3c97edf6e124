"""ITER-RETGEN (Shao et al., 2023): iterative retrieval-generation synergy."""

from hopkit.programs.iter_retgen.program import IterRetGen

__all__ = ["IterRetGen"]
