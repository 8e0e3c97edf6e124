"""Checkpoint folders are checked before colbert-ai reads them, so a broken one gets a clear error."""

from pathlib import Path

import pytest

from hopkit.errors import MissingArtifactError
from hopkit.retrieval.colbert.checkpoints import resolve_checkpoint


def test_an_interrupted_save_is_named_with_its_fix(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "artifact.metadata").write_text("")
    with pytest.raises(MissingArtifactError, match="interrupted save.*train-retriever"):
        resolve_checkpoint(str(tmp_path))


def test_a_folder_without_config_is_not_a_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(MissingArtifactError, match="no config.json"):
        resolve_checkpoint(str(tmp_path))


def test_a_complete_folder_resolves_to_itself(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "artifact.metadata").write_text('{"dim": 384}')
    assert resolve_checkpoint(str(tmp_path)) == str(tmp_path)
