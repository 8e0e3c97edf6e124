"""A torch-extension build lock left by a killed process is removed (else the next ColBERT search waits forever);
a fresh one, held by a build in progress, is kept."""

import os
import subprocess
import time

import pytest

from hopkit.retrieval.colbert.compat import clear_stale_extension_locks

needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/cwd"), reason="builders are read from /proc (Linux)")


def test_old_lock_is_removed_and_fresh_lock_kept(tmp_path, capsys):
    old, fresh = tmp_path / "filter_pids_cpp" / "lock", tmp_path / "decompress_residuals_cpp" / "lock"
    for lock in (old, fresh):
        lock.parent.mkdir()
        lock.touch()
    hour_ago = time.time() - 3600
    os.utime(old, (hour_ago, hour_ago))
    assert clear_stale_extension_locks(tmp_path) == [old]
    assert not old.exists() and fresh.exists()
    assert "stale build lock" in capsys.readouterr().err


def test_missing_folder_is_nothing_to_do(tmp_path):
    assert clear_stale_extension_locks(tmp_path / "absent") == []


def test_lock_beside_a_built_extension_is_stale_sooner(tmp_path):
    folder = tmp_path / "filter_pids_cpp"
    folder.mkdir()
    (folder / "filter_pids_cpp.so").touch()
    lock = _lock(folder, seconds_old=120)
    assert clear_stale_extension_locks(tmp_path) == [lock]


def _lock(folder, seconds_old: float):
    """A build lock in ``folder`` (made if missing) last touched ``seconds_old`` seconds ago."""
    folder.mkdir(exist_ok=True)
    lock = folder / "lock"
    lock.touch()
    then = time.time() - seconds_old
    os.utime(lock, (then, then))
    return lock


@needs_proc
def test_fresh_lock_with_nobody_building_is_stale(tmp_path):
    """A process killed mid-build leaves a lock seconds old: with no process working in the folder it goes."""
    lock = _lock(tmp_path / "segmented_maxsim_cpp", seconds_old=30)
    assert clear_stale_extension_locks(tmp_path) == [lock]


@needs_proc
def test_lock_of_a_build_in_progress_is_kept(tmp_path):
    lock = _lock(tmp_path / "segmented_maxsim_cpp", seconds_old=30)
    builder = subprocess.Popen(["sleep", "30"], cwd=lock.parent)  # stands in for torch's ninja
    try:
        time.sleep(0.2)
        assert clear_stale_extension_locks(tmp_path) == []
        assert lock.exists()
    finally:
        builder.kill()
        builder.wait()
