"""ColBERT's k-means on the GPU without faiss-gpu (compat item 8).

colbert-ai clusters its sampled token embeddings with ``faiss.Kmeans(..., gpu=True)``. With the faiss-cpu wheel
(PyPI has no faiss-gpu wheel for current CUDA) faiss finds no GPU and runs the k-means on the CPU, which dominates
the build of a large index even on a GPU machine: at 200k passages it is about 32k centroids over millions of
vectors. ``torch_kmeans`` is Lloyd's algorithm with faiss's defaults, in torch on whichever device it is given:

- at most ``MAX_POINTS_PER_CENTROID`` (faiss: 256) training points per centroid, a seeded random subsample above;
- initial centroids: ``k`` distinct training points drawn with the seed;
- ``niter`` iterations of nearest-centroid assignment (L2) and recomputed means;
- an empty cluster takes half of the largest one: its centroid is copied and the two copies pushed apart by a
  relative 1/1024, as faiss splits clusters.

The random draws are torch's, not faiss's, so the centroids differ from faiss's for the same seed; the algorithm
and its settings are the same. ``kmeans_backend`` chooses where colbert-ai's k-means runs: ``"auto"`` (torch on
the GPU when there is one and faiss cannot use it, else faiss), ``"faiss"`` (always colbert-ai's own) or ``"torch"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

from hopkit.errors import InputError

if TYPE_CHECKING:  # torch is imported where it is used: the CLI reads KMEANS_BACKENDS without loading torch
    import torch

KmeansBackend = Literal["auto", "faiss", "torch"]
KMEANS_BACKENDS: tuple[str, ...] = ("auto", "faiss", "torch")
MAX_POINTS_PER_CENTROID = 256  # faiss's ClusteringParameters default
SPLIT_EPS = 1.0 / 1024  # faiss's relative perturbation when it splits a cluster for an empty one
ASSIGN_ROWS = 16384  # points scored against all centroids at once (16k x 32k floats = 2 GiB)


def nearest_centroids(points: torch.Tensor, centroids: torch.Tensor) -> torch.Tensor:
    """The index of each point's nearest centroid in L2, in row chunks so that memory stays bounded."""
    import torch

    half_norms = 0.5 * (centroids * centroids).sum(dim=1)
    labels = torch.empty(points.size(0), dtype=torch.long, device=points.device)
    for start in range(0, points.size(0), ASSIGN_ROWS):
        chunk = points[start:start + ASSIGN_ROWS]
        labels[start:start + ASSIGN_ROWS] = (chunk @ centroids.T - half_norms).argmax(dim=1)
    return labels


def split_for_empty(centroids: torch.Tensor, counts: torch.Tensor) -> int:
    """Give each empty cluster half of the currently largest one (faiss's rule). Returns how many were empty."""
    import torch

    empty = (counts == 0).nonzero().flatten().tolist()
    signs = torch.ones(centroids.size(1), device=centroids.device)
    signs[1::2] = -1
    for index in empty:
        largest = int(counts.argmax())
        centroids[index] = centroids[largest] * (1 + SPLIT_EPS * signs)
        centroids[largest] = centroids[largest] * (1 - SPLIT_EPS * signs)
        counts[index] = counts[largest] // 2
        counts[largest] -= counts[index]
    return len(empty)


def torch_kmeans(points: torch.Tensor, k: int, niter: int, seed: int = 123,
                 device: str | torch.device | None = None) -> torch.Tensor:
    """``k`` centroids of ``points`` (n x d) by Lloyd's algorithm with faiss's defaults; returned in float32 on the
    CPU, as faiss returns them. ``device`` defaults to CUDA when there is one."""
    import torch

    if points.dim() != 2 or points.size(0) < k:
        raise InputError(f"k-means needs at least k={k} points as an n x d matrix; got shape {tuple(points.shape)}")
    device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    generator = torch.Generator().manual_seed(seed)
    if points.size(0) > k * MAX_POINTS_PER_CENTROID:
        keep = torch.randperm(points.size(0), generator=generator)[: k * MAX_POINTS_PER_CENTROID]
        points = points[keep]
    data = points.to(device=device, dtype=torch.float32)
    centroids = data[torch.randperm(data.size(0), generator=generator)[:k].to(device)].clone()
    for _ in range(niter):
        labels = nearest_centroids(data, centroids)
        counts = torch.bincount(labels, minlength=k)
        sums = torch.zeros_like(centroids).index_add_(0, labels, data)
        filled = counts > 0
        centroids[filled] = sums[filled] / counts[filled].unsqueeze(1).to(sums.dtype)
        split_for_empty(centroids, counts)
    return centroids.cpu()


def faiss_has_gpu() -> bool:
    try:
        import faiss
    except ImportError:
        return False
    return faiss.get_num_gpus() > 0


def uses_torch(backend: KmeansBackend) -> bool:
    if backend not in KMEANS_BACKENDS:
        raise InputError(f"unknown k-means backend {backend!r}; use one of {', '.join(KMEANS_BACKENDS)}")
    if backend == "auto":
        import torch

        return torch.cuda.is_available() and not faiss_has_gpu()
    return backend == "torch"


@contextmanager
def kmeans_backend(backend: KmeansBackend = "auto") -> Iterator[None]:
    """While indexing, colbert-ai's k-means runs where ``backend`` says (see the module's docstring)."""
    if not uses_torch(backend):
        yield
        return
    from colbert.indexing import collection_indexer

    original = collection_indexer.compute_faiss_kmeans

    def compute(dim: int, num_partitions: int, kmeans_niters: int, shared_lists: Any,
                return_value_queue: Any = None) -> torch.Tensor:
        centroids = torch_kmeans(shared_lists[0][0], num_partitions, kmeans_niters)
        if return_value_queue is not None:
            return_value_queue.put(centroids)
        return centroids

    collection_indexer.compute_faiss_kmeans = compute
    try:
        yield
    finally:
        collection_indexer.compute_faiss_kmeans = original
