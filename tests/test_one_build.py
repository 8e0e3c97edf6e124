"""One way to build a program: outside its definition, build_program is called only by ProgramParts, which every
door (eval, optimize, ablate, reproduce, the analyses, the benchmarks, load_program) builds through."""

import ast
from pathlib import Path

import hopkit


def test_build_program_is_called_in_one_place():
    root = Path(hopkit.__file__).parent
    callers = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node.func, "id", getattr(node.func, "attr", None)) if isinstance(node, ast.Call) else None
            if name == "build_program":
                callers.append(str(path.relative_to(root)))
    assert sorted(set(callers)) == ["programs/registry.py"], callers
