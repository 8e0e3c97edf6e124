"""A method's trace is read by string keys only in the method's own folder (its ``views.py``); the shared layers go
through the views (hopkit/programs/views.py). Keys every trace has are the exception: the method that wrote it, its
profile, and the stats an old log kept."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HOPKIT = Path(__file__).resolve().parent.parent / "hopkit"
METHOD_FOLDERS = [p for p in (HOPKIT / "programs").iterdir() if p.is_dir() and (p / "views.py").is_file()]
SHARED_KEYS = {"method", "profile", "stats"}
TRACE = re.compile(r"\btrace\b")


def trace_key_reads(source: str) -> list[tuple[int, str, str]]:
    """(line, what is read, key) for every ``X.get("key")`` and ``X["key"]`` whose X is a trace."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            base, key = node.func.value, node.args[0].value
        elif (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
              and isinstance(node.slice.value, str)):
            base, key = node.value, node.slice.value
        else:
            continue
        text = ast.unparse(base)
        if key != "trace" and TRACE.search(text):
            found.append((node.lineno, text, key))
    return found


def test_the_checker_finds_reads_of_a_trace_and_of_a_rows_trace():
    source = 'a = trace.get("steps")\nb = row["trace"]["chain"]\nc = (trace.get("tree") or {})["nodes"]\n' \
             'd = trace["method"]\ne = row.get("trace")\nf = other.get("steps")\n'
    assert sorted(key for _, _, key in trace_key_reads(source)) == ["chain", "method", "nodes", "steps", "tree"]


def test_no_module_outside_a_method_folder_reads_a_trace_by_a_method_key():
    assert {p.name for p in METHOD_FOLDERS} >= {"ircot", "searchain", "tree_of_reviews"}
    offences = []
    for path in sorted(HOPKIT.rglob("*.py")):
        if any(folder in path.parents for folder in METHOD_FOLDERS):
            continue
        for line, base, key in trace_key_reads(path.read_text(encoding="utf-8")):
            if key not in SHARED_KEYS:
                offences.append(f"{path.relative_to(HOPKIT.parent)}:{line} reads {base}[{key!r}]")
    assert not offences, "read it through the method's views (hopkit/programs/views.py):\n" + "\n".join(offences)
