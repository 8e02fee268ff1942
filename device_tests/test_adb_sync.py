"""push/pull/stat over the adb sync service, and shells that keep working during a big push."""
from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path

import pytest

from android_harness.android_device import AndroidDevice

BIG_MB = 50


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sync") / "big.bin"
    path.write_bytes(os.urandom(BIG_MB * 1024 * 1024))
    return path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_50mb_push_pull_round_trip(device: AndroidDevice, remote_dir: str, big_file: Path,
                                   tmp_path: Path) -> None:
    remote = f"{remote_dir}/deep/er/big.bin"          # parents do not exist yet
    assert device.push(big_file, remote) == big_file.stat().st_size
    remote_sha = device.shell(["sha256sum", remote]).stdout.split()[0]
    assert remote_sha == _sha(big_file)
    back = tmp_path / "back.bin"
    assert device.pull(remote, back) == big_file.stat().st_size
    assert _sha(back) == _sha(big_file)


def test_stat(device: AndroidDevice, remote_dir: str) -> None:
    device.shell(["sh", "-c", 'printf 12345 > "$1"', "sh", f"{remote_dir}/f"])
    st = device.stat(f"{remote_dir}/f")
    assert st.exists and st.size == 5 and not st.is_dir
    assert device.stat(remote_dir).is_dir
    assert not device.stat(f"{remote_dir}/missing").exists


def test_eight_concurrent_shells_during_a_push(device: AndroidDevice, remote_dir: str, big_file: Path) -> None:
    done: dict[str, float] = {}

    def pusher() -> None:
        for i in range(2):
            device.push(big_file, f"{remote_dir}/p{i}.bin")
        done["push"] = time.monotonic()

    results: dict[int, tuple[str, int, float]] = {}

    def shell(i: int) -> None:
        r = device.shell(f"echo shell-{i}; echo e{i} >&2; exit {i}", check=False)
        results[i] = (r.stdout + r.stderr, r.exit_code, time.monotonic())

    push_thread = threading.Thread(target=pusher)
    push_thread.start()
    time.sleep(0.05)
    shells = [threading.Thread(target=shell, args=(i,)) for i in range(8)]
    for t in shells:
        t.start()
    for t in shells:
        t.join(timeout=60)
    push_thread.join(timeout=120)
    assert {i: (out, rc) for i, (out, rc, _t) in results.items()} == {
        i: (f"shell-{i}\ne{i}\n", i) for i in range(8)}
    assert "push" in done
    size = big_file.stat().st_size
    assert [device.stat(f"{remote_dir}/p{i}.bin").size for i in range(2)] == [size, size]
