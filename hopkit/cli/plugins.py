"""Methods of a user's own for the command line: ``HOPKIT_METHODS`` names the files (or modules) that register them,
separated by commas, and each is imported once before the verb runs (docs/extending.md). The Python API needs none
of this: importing the file registers its method."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from pathlib import Path

from hopkit.errors import InputError

VARIABLE = "HOPKIT_METHODS"


def load_user_methods(value: str | None = None) -> list[str]:
    """Import every file or module ``HOPKIT_METHODS`` names; returns what was imported."""
    named = [part.strip() for part in (os.environ.get(VARIABLE, "") if value is None else value).split(",")]
    loaded = []
    for name in filter(None, named):
        if name.endswith(".py"):
            _import_file(Path(name).expanduser().resolve())
        else:
            try:
                importlib.import_module(name)
            except ImportError as error:
                raise InputError(f"{VARIABLE}: cannot import {name!r} ({error})") from None
        loaded.append(name)
    return loaded


def _import_file(path: Path) -> None:
    if not path.is_file():
        raise InputError(f"{VARIABLE}: no file at {path}")
    module_name = "hopkit_user_method_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    if module_name in sys.modules:  # imported once: its registration stands
        return
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"{VARIABLE}: {path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    sys.path.insert(0, str(path.parent))  # the file's own folder, for its neighbours (signatures, views)
    try:
        spec.loader.exec_module(module)
    except Exception:
        del sys.modules[module_name]
        raise
    finally:
        sys.path.remove(str(path.parent))
