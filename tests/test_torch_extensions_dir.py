"""colbert-ai's compiled extensions live in one folder per Python environment under hopkit's home, so that two
environments (a checkout's and a clean clone's) never rebuild each other's."""

import sys

from hopkit.paths import torch_extensions_dir


def test_folder_is_under_home_and_named_by_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("HOPKIT_HOME", str(tmp_path))
    first = torch_extensions_dir()
    assert first.parent == tmp_path / "torch-extensions"
    monkeypatch.setattr(sys, "prefix", "/another/venv")
    assert torch_extensions_dir() != first
    assert torch_extensions_dir().parent == first.parent
