"""hopkit: multi-hop retrieval-augmented reasoning methods as DSPy programs."""

__version__ = "0.1.0"
