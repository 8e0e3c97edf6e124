"""A real PostgreSQL server from the Debian package, on loopback, in a temporary data folder (for tests).

PostgreSQL refuses to run as root, so as root the server runs as the package's ``postgres`` user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path


def binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def missing() -> str | None:
    if binaries() is None:
        return "PostgreSQL server is not installed (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the PostgreSQL driver is not installed (pip install 'hopkit[postgres]')"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    def __init__(self, folder: Path) -> None:
        self.folder, self.port, self.bin = Path(folder), _free_port(), binaries()
        self.data = self.folder / "data"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "hopkit", "--auth=trust", "-E", "UTF8")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w",
                  "-o", f"-p {self.port} -h 127.0.0.1 -k {self.folder}", "start")
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "hopkit", "studies")
        return f"postgresql+psycopg://hopkit@127.0.0.1:{self.port}/studies"

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass
        time.sleep(0.2)
