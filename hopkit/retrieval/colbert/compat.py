"""Everything colbert-ai 0.2.22 needs patched to run with our pinned versions, in one place.

1. Training wraps the model in ``DistributedDataParallel`` even with one process, which fails
   on a CPU (no process group). ``single_process_training`` swaps in a pass-through wrapper
   with the same ``.module`` attribute while colbert-ai trains, when no process group exists.
2. Under transformers >= 5 every checkpoint load fails (``HF_ColBERT`` calls ``init_weights``
   before ``post_init``). We pin transformers < 5 in pyproject.toml instead of patching it.
3. Its run folders are named after ``__main__.__file__`` and it asserts that file ends in
   ``.py``, which fails under a console script (``hopkit``) or ``python -c``. Inside
   ``single_process_training`` the run's script name is ``hopkit`` whenever that assertion would fail.
4. Always run with ``RunConfig(nranks=1, avoid_fork_if_possible=True)`` (``run_config``): a
   crashed spawned child makes colbert-ai's parent block forever on a queue.
5. Every checkpoint or index it saves records the git branch of the working directory's repository, and
   a detached HEAD (a CI checkout, a ``git worktree`` at a commit) raises ``TypeError`` there, after the
   metadata file was opened: training dies at its last step and a derived checkpoint is left with an
   empty ``artifact.metadata``. ``no_git_metadata`` points ``GIT_DIR`` at an empty folder while
   colbert-ai saves, so it records no repository (it skips a folder that is not one), as outside git.
6. colbert-ai loads its C++ extensions through torch's JIT loader, which takes a ``lock`` file in the
   extension's build folder and removes it when done. A process killed while it held the lock (Ctrl-C
   during the first search) leaves the file, and every later process sleeps forever waiting for it, with
   no message. ``clear_stale_extension_locks`` removes such a lock when no process is building in its
   folder (torch runs the build there; read from /proc), or, where /proc cannot tell, when it is older than
   any build takes; and says so.
7. Before its k-means, colbert-ai holds out 5% of the sampled token embeddings (up to 50,000) and takes
   ``torch.quantile`` over all their residual values, which refuses more than 2**24 elements. With our
   384-dimension MiniLM checkpoint that limit falls at 43,690 held-out embeddings, so every corpus of about
   50,000 passages or more failed after its whole k-means ("quantile() input tensor is too large"; 128-dim
   ColBERTv2 stays under it). ``bounded_heldout`` keeps the held-out rows within the limit while indexing;
   the rows it leaves out (0.3% of the sample at 50k passages) were never part of the k-means anyway.
8. Its k-means asks faiss for the GPU, and PyPI's faiss-cpu silently clusters on the CPU instead, the longest
   step of a large build on a GPU machine. ``torch_kmeans.kmeans_backend`` (an index setting, ``--kmeans``) runs
   the same Lloyd's k-means in torch on the GPU there; see that module.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch


class PassThroughParallel(torch.nn.Module):
    """Stands in for DistributedDataParallel in a single process: same ``.module``, same forward."""

    def __init__(self, module: torch.nn.Module, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.module = module

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)


@contextmanager
def single_process_training() -> Iterator[None]:
    import torch.distributed as dist
    from colbert.infra.config.settings import RunSettings

    original_script_name = RunSettings.script_name_

    def script_name(self: Any) -> str:
        try:
            return original_script_name.fget(self)
        except AssertionError:
            return "hopkit"

    RunSettings.script_name_ = property(script_name)
    parallel: Any = torch.nn.parallel  # the module whose class colbert-ai looks up, patched for the block
    original_parallel = parallel.DistributedDataParallel
    if not (dist.is_available() and dist.is_initialized()):
        parallel.DistributedDataParallel = PassThroughParallel
    try:
        yield
    finally:
        parallel.DistributedDataParallel = original_parallel
        RunSettings.script_name_ = original_script_name


@contextmanager
def quiet() -> Iterator[None]:
    """colbert-ai prints its settings and progress to stdout even at verbose=0; keep loads and searches silent."""
    import contextlib
    import io
    import warnings

    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def run_config(root: Path, experiment: str) -> Any:
    from colbert.infra import RunConfig

    return RunConfig(nranks=1, avoid_fork_if_possible=True, root=str(root), experiment=experiment,
                     gpus=torch.cuda.device_count())


STALE_LOCK_SECONDS = 600  # building these extensions takes 1-2 minutes on 2 cores
STALE_LOAD_LOCK_SECONDS = 60  # loading one already built takes seconds
UNBUILT_LOCK_SECONDS = 10  # a lock nobody builds under: the holder is between taking it and starting the build


def clear_stale_extension_locks(root: Path | None = None, older_than: float = STALE_LOCK_SECONDS,
                                built_older_than: float = STALE_LOAD_LOCK_SECONDS,
                                unbuilt_older_than: float = UNBUILT_LOCK_SECONDS) -> list[Path]:
    """Remove torch-extension build locks left by killed processes (item 6): a lock with no process building
    in its folder for ``unbuilt_older_than`` seconds; else one older than a build takes, or, where the extension
    is built already (its ``.so`` is there), older than loading it takes. Returns the locks removed."""
    import sys
    import time

    folder = Path(root or os.environ.get("TORCH_EXTENSIONS_DIR", ""))
    if not str(folder) or not folder.is_dir():
        return []
    builders = _working_folders()
    removed = []
    for lock in folder.glob("*/lock"):
        try:
            age = time.time() - lock.stat().st_mtime
            if builders is not None and lock.parent.resolve() not in builders:
                limit = unbuilt_older_than
            else:
                limit = built_older_than if any(lock.parent.glob("*.so")) else older_than
            if age > limit:
                lock.unlink()
                removed.append(lock)
                print(f"hopkit: removed a stale build lock left by a killed process: {lock}", file=sys.stderr)
        except FileNotFoundError:  # another process finished with it meanwhile
            continue
    return removed


def _working_folders() -> set[Path] | None:
    """The working folders of this machine's processes (torch builds an extension with its folder as the working
    folder), or None where /proc cannot say (not Linux)."""
    proc = Path("/proc")
    if not (proc / "self" / "cwd").exists():
        return None
    folders = set()
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                folders.add((entry / "cwd").resolve(strict=True))
            except OSError:  # gone meanwhile, or another user's
                continue
    return folders


QUANTILE_LIMIT = 2 ** 24  # the most elements torch.quantile accepts (item 7)


def bounded_rows(heldout: torch.Tensor, limit: int = QUANTILE_LIMIT) -> torch.Tensor:
    """The first rows of ``heldout`` whose values number at most ``limit``."""
    width = max(1, heldout[0].numel()) if heldout.size(0) else 1
    return heldout[: limit // width]


@contextmanager
def bounded_heldout(limit: int = QUANTILE_LIMIT) -> Iterator[None]:
    """colbert-ai's held-out sample stays within torch.quantile's limit while indexing (item 7)."""
    from colbert.indexing.collection_indexer import CollectionIndexer

    original = CollectionIndexer._concatenate_and_split_sample

    def split(self: Any) -> tuple[torch.Tensor, torch.Tensor]:
        sample, heldout = original(self)
        return sample, bounded_rows(heldout, limit)

    CollectionIndexer._concatenate_and_split_sample = split
    try:
        yield
    finally:
        CollectionIndexer._concatenate_and_split_sample = original


@contextmanager
def no_git_metadata() -> Iterator[None]:
    """colbert-ai sees no git repository while it saves (see item 5 above)."""
    previous = os.environ.get("GIT_DIR")
    with tempfile.TemporaryDirectory(prefix="hopkit-no-git-") as empty:
        os.environ["GIT_DIR"] = empty
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop("GIT_DIR", None)
            else:
                os.environ["GIT_DIR"] = previous
