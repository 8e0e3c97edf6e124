"""The library's errors name settings, not command-line flags: the optimizer, the run spec, the question picker and
the protocol are called from Python too, where no flag exists."""

import ast
import re
from pathlib import Path

import hopkit

LIBRARY = ("optimize", "reproduce")  # the packages a Python caller drives directly
FLAG = re.compile(r"(?<![\w`])--[a-z][a-z-]+")


def _raised_texts(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for arg in node.exc.args:
                for part in ast.walk(arg):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        yield node.lineno, part.value


def test_the_optimizer_and_the_protocol_raise_no_flag_names():
    root = Path(hopkit.__file__).parent
    paths = [p for package in LIBRARY for p in sorted((root / package).rglob("*.py"))]
    paths += [root / "spec.py", root / "data" / "examples.py"]
    found = [f"{path.relative_to(root)}:{line}: {text!r}" for path in paths for line, text in _raised_texts(path)
             if FLAG.search(re.sub(r"`[^`]*`", "", text))]  # a command quoted whole may show its flags
    assert found == []
