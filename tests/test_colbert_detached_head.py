"""colbert-ai saves a checkpoint's metadata without tripping over a git checkout at a detached HEAD."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hopkit.retrieval.colbert.compat import no_git_metadata


@pytest.fixture
def detached_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if shutil.which("git") is None:
        pytest.skip("needs the git command to make a checkout at a detached HEAD")
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "one"], check=True)
    subprocess.run([*git, "checkout", "-q", "--detach"], check=True)
    monkeypatch.chdir(repo)
    monkeypatch.delenv("GIT_DIR", raising=False)
    return repo


def test_a_checkpoint_config_saves_complete_metadata_at_a_detached_head(detached_checkout: Path, tmp_path: Path):
    from colbert.infra import ColBERTConfig

    out = tmp_path / "ckpt"
    out.mkdir()
    with no_git_metadata():
        ColBERTConfig(dim=384).save_for_checkpoint(str(out))
    metadata = json.loads((out / "artifact.metadata").read_text())
    assert metadata["dim"] == 384 and "git_branch" not in metadata["meta"]
    assert "GIT_DIR" not in os.environ  # restored afterwards
