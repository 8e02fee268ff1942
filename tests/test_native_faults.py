"""Faults the native runner must end cleanly on (x86_64 build).

- A corrupted program (body or header) is one error naming the file with the manifest's and the
  actual sha256, before the runtime parses a byte; the persistent runner survives it and serves the
  next session.
- A full disk (a bubblewrap tmpfs holding the whole storage root, filled to leave 0-400 KB free) at
  every point of a session: one error line `No space left on device on <path>: free X, needed Y`
  in result.json (or on stderr when not even the error fits), whole lines in events.jsonl and
  trace.jsonl, no half-written checkpoint; the persistent runner serves the next session once
  there is space again.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests._native_bins import runner_binary
from tests._runner_env import executorch_env, traced_session
from tests._small_disk import (NO_SPACE, assert_a_session_taken_on_a_full_disk_ends_at_once,
                              assert_no_result_without_session_end, assert_one_full_disk_error,
                              assert_served_runner_survives, events_of, on_small_disk, whole_files_only)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
ABI = "x86_64"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return executorch_env(tmp_path_factory.mktemp("faults-root"), runner_binary(ABI), epochs=2)


def _corrupt_copy(root: Path, name: str, offset: int) -> tuple[Path, str, str]:
    """models/<name>: the export with training.pte's byte at `offset` flipped; (its path, listed, actual sha256)."""
    folder = root / "models" / name
    shutil.copytree(root / "models" / "executorch", folder)
    pte = folder / "training.pte"
    data = bytearray(pte.read_bytes())
    data[offset % len(data)] ^= 0x5A
    pte.write_bytes(bytes(data))
    listed = next(f["sha256"] for f in json.loads((folder / "manifest.json").read_text())["files"] if f["role"] == "training")
    return pte, listed, hashlib.sha256(bytes(data)).hexdigest()


@pytest.mark.parametrize("where", ["header", "body"])
def test_a_corrupted_program_is_one_error_naming_the_file_and_both_hashes(env, where: str) -> None:
    _, root, _, binary = env
    pte, listed, actual = _corrupt_copy(root, f"corrupt-{where}", 8 if where == "header" else pte_size(root) // 2)
    folder = traced_session(env, f"corrupt-{where}", model_dir=f"models/corrupt-{where}")
    out = subprocess.run([str(binary), "run", str(folder)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    result = json.loads((folder / "result.json").read_text())
    assert result["status"] == "error"
    assert result["error"].startswith(f"{pte}: corrupted or edited: size {pte.stat().st_size} bytes, sha256 {actual}; ")
    assert result["error"].endswith(f"manifest.json lists size {pte.stat().st_size}, sha256 {listed}")
    events = events_of(folder)
    assert [e["type"] for e in events] == ["error", "session_end"] and events[0]["phase"] == "setup"
    assert result["error"] in out.stderr and "terminate" not in out.stderr
    assert not (folder / "checkpoints").exists() and not (folder / "runner.reserve").exists()


def pte_size(root: Path) -> int:
    return (root / "models" / "executorch" / "training.pte").stat().st_size


def _enqueue(queue: Path, folder: Path) -> None:
    tmp = queue / f".{folder.name}.tmp"
    tmp.write_text(str(folder))
    os.replace(tmp, queue / folder.name)


def _wait(pred, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_the_served_runner_survives_a_corrupted_program_and_serves_the_next_session(env) -> None:
    _, root, _, binary = env
    _corrupt_copy(root, "corrupt-served", 16)
    bad = traced_session(env, "served-bad", model_dir="models/corrupt-served")
    good = traced_session(env, "served-good")
    queue = root / "runner" / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen([str(binary), "serve", str(queue), "3"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for folder in (bad, good):
            _enqueue(queue, folder)
            _wait(lambda: (folder / "result.json").exists(), f"{folder.name} served")
        assert server.wait(timeout=60) == 0  # served both, then the idle exit: it never died
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert json.loads((bad / "result.json").read_text())["status"] == "error"
    assert "corrupted or edited" in (bad / "runner.log").read_text()
    assert json.loads((good / "result.json").read_text())["status"] == "ok"
    assert int((bad / "runner.pid").read_text()) == int((good / "runner.pid").read_text()) == server.pid
    assert json.loads((root / "runner" / "server.json").read_text())["served"] == 2


# --- a full disk ------------------------------------------------------------------------------


def _on_small_disk(env, tmp_path: Path, script: str, free: int) -> tuple[Path, subprocess.CompletedProcess]:
    _, root, _, binary = env
    return on_small_disk(root, str(binary), tmp_path, script, free)


@pytest.mark.parametrize("free_kb", [0, 66, 72, 100, 240, 400])
def test_a_full_disk_is_one_clear_error_and_leaves_whole_files(env, tmp_path: Path, free_kb: int) -> None:
    sid = f"full-{free_kb}"
    traced_session(env, sid, checkpoint_every=1, step_event_every=1)
    out, proc = _on_small_disk(env, tmp_path, f'"$R" run "$D"/sessions/{sid}', free_kb * 1024)
    assert_one_full_disk_error(proc, out / "sessions" / sid, tmp_path / "disk", free_kb)


def test_a_checkpoint_that_does_not_fit_is_refused_before_a_byte_is_written(env, tmp_path: Path) -> None:
    """A free space above the reserve but below one checkpoint: the first checkpoint is refused up front."""
    traced_session(env, "ckpt-full", checkpoint_every=1)
    out, proc = _on_small_disk(env, tmp_path, '"$R" run "$D"/sessions/ckpt-full', 100 * 1024)
    folder = out / "sessions" / "ckpt-full"
    result = json.loads((folder / "result.json").read_text())
    assert proc.returncode == 1 and result["status"] == "error"
    assert result["error"].startswith(f"{NO_SPACE}{tmp_path / 'disk'}/sessions/ckpt-full/checkpoints: free ")
    assert result["error"].endswith("(checkpoint ckpt-000000001)")
    assert not (folder / "checkpoints").exists() or not list((folder / "checkpoints").iterdir())
    whole_files_only(folder)


def test_the_served_runner_survives_a_full_disk_and_serves_the_next_session(env, tmp_path: Path) -> None:
    traced_session(env, "disk-a", checkpoint_every=1)
    traced_session(env, "disk-b")
    assert_served_runner_survives(env[1], str(env[3]), '"$R"', tmp_path)


def test_a_session_the_server_takes_on_a_full_disk_ends_at_once_from_its_reserve(env, tmp_path: Path) -> None:
    traced_session(env, "full-a")
    traced_session(env, "full-b")
    assert_a_session_taken_on_a_full_disk_ends_at_once(env[1], str(env[3]), '"$R"', tmp_path)


def test_a_session_whose_log_refuses_its_end_writes_no_result(env) -> None:
    assert_no_result_without_session_end(str(env[3]), traced_session(env, "log-full"))
