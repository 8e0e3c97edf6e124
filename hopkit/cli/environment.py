"""Process settings the CLI applies before DSPy, litellm or torch are imported."""

from __future__ import annotations

import os

from hopkit.paths import home, torch_extensions_dir


def apply_defaults() -> None:
    """Offline-safe defaults; a variable the user set already is left as it is."""
    root = home()
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # else litellm fetches a price list
    os.environ.setdefault("DSPY_CACHEDIR", str(root / "dspy-cache"))
    os.environ.setdefault("HF_HOME", str(root / "hf"))
    os.environ.setdefault("TORCH_EXTENSIONS_DIR", str(torch_extensions_dir()))
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
