"""hopkit: multi-hop retrieval-augmented reasoning methods as DSPy programs."""

__version__ = "0.1.0"


def load_program(folder, retriever=None, reader=None):
    """A program saved by ``hopkit optimize``, over the given retriever and reader."""
    from hopkit.optimize.saved import load_program as _load

    return _load(folder, retriever=retriever, reader=reader)
