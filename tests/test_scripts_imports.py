"""Every name a script under scripts/ imports from hopkit exists, including imports inside functions that only run
on another machine (scripts/cuda_paths.py's GPU measurement once imported a helper removed from the package)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parent.parent / "scripts").glob("*.py"))


def _hopkit_imports(path: Path) -> list[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.module, alias.name) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "hopkit"
            for alias in node.names]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_each_hopkit_name_a_script_imports_exists(script):
    missing = [f"{module}.{name}" for module, name in _hopkit_imports(script)
               if not hasattr(importlib.import_module(module), name)
               and importlib.util.find_spec(f"{module}.{name}") is None]
    assert not missing, f"{script.name} imports names hopkit no longer has: {missing}"


def test_the_check_finds_the_imports_inside_functions(tmp_path):
    script = tmp_path / "example.py"
    script.write_text("def run():\n    from hopkit.paths import home, no_such_helper\n")
    assert _hopkit_imports(script) == [("hopkit.paths", "home"), ("hopkit.paths", "no_such_helper")]
    assert not hasattr(importlib.import_module("hopkit.paths"), "no_such_helper")
