"""IRCoT (Trivedi et al., 2023): interleaving retrieval with chain-of-thought reasoning."""

from hopkit.programs.ircot.program import IRCoT

__all__ = ["IRCoT"]
