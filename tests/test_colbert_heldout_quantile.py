"""colbert-ai's held-out sample stays within torch.quantile's 2**24 elements (compat item 7): with 384-dim
embeddings a corpus of about 50,000 passages failed after its whole k-means."""

from types import SimpleNamespace

import pytest
import torch

from hopkit.retrieval.colbert.compat import QUANTILE_LIMIT, bounded_heldout, bounded_rows

DIM = 384  # the offline MiniLM checkpoint's embedding size


def test_the_largest_heldout_of_a_384_dim_index_breaks_quantile_and_bounded_rows_fit():
    heldout = torch.zeros(QUANTILE_LIMIT // DIM + 1, DIM, dtype=torch.float16)
    quantiles = torch.tensor([0.25, 0.5, 0.75])
    with pytest.raises(RuntimeError, match="too large"):
        heldout.float().quantile(quantiles)
    kept = bounded_rows(heldout)
    assert kept.size(0) == QUANTILE_LIMIT // DIM and kept.numel() <= QUANTILE_LIMIT
    assert kept.float().quantile(quantiles).shape == (3,)


def test_a_heldout_within_the_limit_is_kept_whole():
    heldout = torch.ones(10, DIM)
    assert bounded_rows(heldout).size(0) == 10
    assert bounded_rows(torch.empty(0, DIM)).size(0) == 0


def test_colberts_own_split_is_bounded_inside_the_context_and_restored_after(tmp_path):
    from colbert.indexing.collection_indexer import CollectionIndexer

    rows, dim = 2000, 8
    torch.save(torch.randn(rows, dim).half(), tmp_path / "sample.0.pt")
    indexer = SimpleNamespace(rank=0, nranks=1, num_sample_embs=rows,
                              config=SimpleNamespace(dim=dim, index_path_=str(tmp_path)))
    original = CollectionIndexer._concatenate_and_split_sample
    with bounded_heldout(limit=40 * dim):  # colbert-ai holds out 5%: 100 rows, of which 40 fit
        sample, heldout = CollectionIndexer._concatenate_and_split_sample(indexer)
    assert CollectionIndexer._concatenate_and_split_sample is original
    assert sample.shape == (rows - 100, dim) and heldout.shape == (40, dim)
