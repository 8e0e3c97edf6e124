"""The core stays clean: programs, readers, retrievers, signatures and the LM layer never import the
evaluation package (they share text helpers through the leaf package hopkit.text)."""

import ast
from pathlib import Path

import hopkit

CORE = ("programs", "additions", "knobs", "reader", "retrieval", "signatures", "lm", "data", "text")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_core_module_imports_evaluation():
    root = Path(hopkit.__file__).parent
    offenders = [f"{path.relative_to(root)}: {name}" for room in CORE for path in sorted((root / room).rglob("*.py"))
                 for name in _imports(path) if name.startswith(("hopkit.evaluation", "hopkit.cli", "hopkit.optimize"))]
    assert offenders == []


def test_evaluation_imports_nothing_built_on_it():
    """Evaluation answers questions and scores them; the report, optimizer, reproduce protocol and CLI sit on top of
    it (an ablation's tables and chart are written by hopkit.report.ablation_outputs)."""
    root = Path(hopkit.__file__).parent / "evaluation"
    above = ("hopkit.report", "hopkit.optimize", "hopkit.reproduce", "hopkit.cli", "hopkit.calibration", "hopkit.api")
    offenders = [f"{path.name}: {name}" for path in sorted(root.rglob("*.py")) for name in _imports(path)
                 if name.startswith(above)]
    assert offenders == []


def test_the_text_package_is_a_leaf():
    root = Path(hopkit.__file__).parent / "text"
    for path in root.glob("*.py"):
        assert all(not name.startswith("hopkit.") or name.startswith("hopkit.text") for name in _imports(path)), path


def test_the_additions_live_apart_from_the_algorithms():
    """Programs call the additions. The shared additions import no program; a method's own additions (SearChain's
    act on its tree and feedback) live in that method's additions/ folder and never reach into its program class;
    the knob declarations reach into no program."""
    root = Path(hopkit.__file__).parent
    for path in (root / "additions").rglob("*.py"):
        assert not any(name.startswith("hopkit.programs") for name in _imports(path)), path
    for path in (root / "programs").rglob("additions/*.py"):
        assert not any(name.endswith(".program") or name == "hopkit.programs.registry" for name in _imports(path)), path
    for path in (root / "knobs").rglob("*.py"):
        assert not any(name.startswith("hopkit.programs") for name in _imports(path)), path
    programs = "\n".join(p.read_text(encoding="utf-8") for p in (root / "programs").rglob("*.py")
                         if "additions" not in p.parts)
    for step in ("class YesNoCheck", "class OptionCheck", "class ShortForm", "def restated_verdict", "def supported",
                 "def rejudge_repeat", "def decompose_again", "def final_from_last_chain", "class WrittenQuery",
                 "class CallBudget"):
        assert step not in programs, step


def test_the_run_package_sits_just_below_the_doors():
    """hopkit.run carries out the specs that the command line and the Python API build; the layers it builds on
    (data, retrieval, programs, evaluation, optimize, reproduce, report) never import it back."""
    root = Path(hopkit.__file__).parent
    doors = {root / "__init__.py", root / "api.py"}
    offenders = [f"{path.relative_to(root)}: {name}" for path in sorted(root.rglob("*.py"))
                 if path not in doors and "cli" not in path.relative_to(root).parts
                 and "run" not in path.relative_to(root).parts[:1]
                 for name in _imports(path) if name == "hopkit.run" or name.startswith("hopkit.run.")]
    assert offenders == []
