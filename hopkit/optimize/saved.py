"""A saved program: DSPy state (demos, instructions), the chosen knobs, and a manifest of how it was made.

``load_program`` rebuilds the program through ``build_program``, as the optimizer built it, so the knobs a
study chose and the knobs a deployed program runs with come from the same code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import dspy

from hopkit.errors import MissingArtifactError
from hopkit.knobs import check_values
from hopkit.knobs.knob import Profile
from hopkit.programs.registry import ProgramParts, get_method
from hopkit.reader.protocol import Reader
from hopkit.retrieval.protocol import Retriever

MANIFEST, STATE = "manifest.json", "program.json"
PACKAGES = ("hopkit", "dspy", "optuna", "colbert-ai", "llama_cpp_python", "transformers", "torch")


def split_hash(examples: Sequence[dspy.Example]) -> str:
    digest = hashlib.sha256()
    for ex in examples:
        digest.update(f"{ex.qid}\t{ex.question}\t{'|'.join(ex.answers)}\n".encode())
    return digest.hexdigest()[:16]


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def save_program(folder: Path, program: dspy.Module, method: str, knobs: dict[str, Any], **manifest: Any) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / STATE).write_text(json.dumps(program.dump_state(), indent=1, ensure_ascii=False, default=str))
    record = {"method": method, "knobs": knobs, "packages": package_versions(), **manifest}
    (folder / MANIFEST).write_text(json.dumps(record, indent=2, ensure_ascii=False, default=str))
    return folder


def read_manifest(folder: Path) -> dict[str, Any]:
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise MissingArtifactError(f"no saved program at {folder} (no {MANIFEST}); make one with hopkit optimize")
    return json.loads(path.read_text())


@dataclass(frozen=True)
class SavedProgram:
    """What a saved program folder holds: how to rebuild it, and the DSPy state to load into it."""
    method: str
    knobs: dict[str, Any]
    profile: Profile
    state: dict[str, Any]
    task: str | None = None  # the task the study's programs answered, where it was not the dataset's default


def read_saved(folder: Path | str) -> SavedProgram:
    """The folder's manifest and state; its method and knobs checked, an error naming the folder."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    method = get_method(manifest["method"])
    knobs = check_values(method.knob_group or "", dict(manifest["knobs"]), owner=f"{folder} ({method.name})")
    # a program saved before profiles existed was built on hopkit's defaults
    return SavedProgram(method.name, knobs, manifest.get("profile", "hopkit"), json.loads((folder / STATE).read_text()),
                        manifest.get("task"))


def load_program(folder: Path | str, retriever: Retriever | None = None, reader: Reader | None = None) -> dspy.Module:
    """The saved program over the given retriever and reader, with its knobs, demos and instructions, answering the
    task its study answered."""
    from hopkit.tasks import get_task

    saved = read_saved(folder)
    task = get_task(saved.task) if saved.task else None
    return ProgramParts(saved.method, retriever, reader, profile=saved.profile, task=task,
                        state=saved.state).program(**saved.knobs)
