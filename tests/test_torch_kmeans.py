"""ColBERT's k-means in torch (compat item 8): faiss's algorithm and defaults, on whichever device it is given."""

import pytest
import torch

from hopkit.errors import InputError
from hopkit.retrieval.colbert import torch_kmeans as tk


def blobs(per_blob: int = 100, dim: int = 8, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Four tight clusters around far-apart means: points, the means, each point's true cluster."""
    generator = torch.Generator().manual_seed(seed)
    means = 10 * torch.eye(dim)[:4]
    truth = torch.arange(4).repeat_interleave(per_blob)
    points = means[truth] + 0.1 * torch.randn(len(truth), dim, generator=generator)
    return points, means, truth


def test_four_separate_blobs_get_one_centroid_each_at_their_means():
    points, means, truth = blobs()
    centroids = tk.torch_kmeans(points.half(), k=4, niter=10, device="cpu")  # colbert-ai's sample is fp16
    assert centroids.shape == (4, 8) and centroids.dtype == torch.float32 and centroids.device.type == "cpu"
    labels = tk.nearest_centroids(points, centroids)
    for blob in range(4):
        assert labels[truth == blob].unique().numel() == 1  # a blob is never split ...
    assert labels.unique().numel() == 4  # ... nor merged with another
    nearest_mean = torch.cdist(centroids, means).min(dim=1).values
    assert nearest_mean.max() < 0.1


def test_the_same_seed_gives_the_same_centroids_and_another_seed_may_not():
    points, _, _ = blobs(seed=1)
    first = tk.torch_kmeans(points, k=6, niter=3, seed=123, device="cpu")
    assert torch.equal(first, tk.torch_kmeans(points, k=6, niter=3, seed=123, device="cpu"))
    assert not torch.equal(first, tk.torch_kmeans(points, k=6, niter=3, seed=7, device="cpu"))


def test_more_points_than_256_per_centroid_are_subsampled(monkeypatch):
    points, _, _ = blobs(per_blob=100)
    seen = []
    original = tk.nearest_centroids
    monkeypatch.setattr(tk, "nearest_centroids", lambda data, c: seen.append(len(data)) or original(data, c))
    monkeypatch.setattr(tk, "MAX_POINTS_PER_CENTROID", 50)
    tk.torch_kmeans(points, k=4, niter=2, device="cpu")
    assert seen == [200, 200]  # 4 centroids x 50 points of the 400


def test_an_empty_cluster_takes_half_of_the_largest():
    centroids = torch.tensor([[1.0, 2.0], [5.0, 5.0], [1.0, 1.0]])
    counts = torch.tensor([10, 0, 4])
    assert tk.split_for_empty(centroids, counts) == 1
    eps = tk.SPLIT_EPS
    assert torch.allclose(centroids[1], torch.tensor([1 + eps, 2 * (1 - eps)]))  # a nudged copy of cluster 0 ...
    assert torch.allclose(centroids[0], torch.tensor([1 - eps, 2 * (1 + eps)]))  # ... nudged the other way
    assert counts.tolist() == [5, 5, 4]


def test_too_few_points_or_an_unknown_backend_is_a_clear_error():
    with pytest.raises(InputError, match="at least k=5"):
        tk.torch_kmeans(torch.zeros(3, 2), k=5, niter=1, device="cpu")
    with pytest.raises(InputError, match="unknown k-means backend 'gpu'"):
        tk.uses_torch("gpu")


def test_auto_uses_torch_only_on_a_gpu_that_faiss_cannot_use(monkeypatch):
    assert tk.uses_torch("torch") and not tk.uses_torch("faiss")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert not tk.uses_torch("auto")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(tk, "faiss_has_gpu", lambda: False)
    assert tk.uses_torch("auto")
    monkeypatch.setattr(tk, "faiss_has_gpu", lambda: True)
    assert not tk.uses_torch("auto")


def test_the_backend_swaps_colbert_ais_kmeans_while_indexing_and_puts_it_back():
    from colbert.indexing import collection_indexer

    original = collection_indexer.compute_faiss_kmeans
    points, means, _ = blobs()
    with tk.kmeans_backend("torch"):
        patched = collection_indexer.compute_faiss_kmeans
        assert patched is not original
        centroids = patched(8, 4, 10, [[points.half()]])  # colbert-ai's own call shape
    assert collection_indexer.compute_faiss_kmeans is original
    assert torch.cdist(centroids, means).min(dim=1).values.max() < 0.1
    with tk.kmeans_backend("faiss"):
        assert collection_indexer.compute_faiss_kmeans is original
