import os
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# Model packs are large: tests share the user's cache rather than fetching into a temporary home.
os.environ.setdefault("HOPKIT_MODELS", str(Path.home() / ".cache" / "hopkit" / "models"))
# colbert-ai compiles C++ extensions on first use (about a minute each): keep them between runs, in the folder
# of this Python environment under the user's cache (the CLI's), before a test points HOPKIT_HOME elsewhere.
from hopkit.paths import torch_extensions_dir  # noqa: E402

os.environ.setdefault("TORCH_EXTENSIONS_DIR", str(torch_extensions_dir()))

import dspy  # noqa: E402


@pytest.fixture(scope="session")
def hopkit_home(tmp_path_factory) -> Path:
    """One HOPKIT_HOME for the session; model packs are shared with the user's cache if present."""
    home = tmp_path_factory.mktemp("hopkit-home")
    os.environ["HOPKIT_HOME"] = str(home)
    return home


@pytest.fixture(autouse=True)
def clean_dspy(hopkit_home, tmp_path, monkeypatch):
    monkeypatch.setenv("DSPY_CACHEDIR", str(tmp_path / "dspy-cache"))  # the cost ledger's folder: one per test
    # a test's run logs stay in its own folder: a scripted LM's rows under the checkout's runs/ would be resumed by
    # the user's next real run of the same command (the demo's logs are named by the LM flag, not the engine)
    monkeypatch.setenv("HOPKIT_RUNS", str(tmp_path / "runs"))
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)
    yield
    dspy.configure(lm=None)


@pytest.fixture(scope="session")
def bundled_dev(hopkit_home):
    from hopkit.data.registry import load_bundled

    return load_bundled("dev")
