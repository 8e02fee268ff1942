"""The phone's storage turned read-only during a run (as ext4 does with errors=remount-ro): ``edgecl run``
ends with one line naming a read-only storage and the way on, no traceback and none of edgecl's shell
scripts; once the storage is writable again ``--resume`` finishes the run with the completed task kept.
Virtual phone only: a read-only bind over the storage root inside the phone's own mount namespace, made
while the run is held between two sessions."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from android_harness.android_device import AndroidDevice
from android_harness.vphone.manager import VphoneInfo
from android_harness.vphone.sandbox import NSENTER
from device_tests._paused_runner import continue_runner, held_between_sessions
from device_tests._small_run import reaped, small_run_spec, wait_for

ROOT = Path(__file__).resolve().parents[1]
SPEC = small_run_spec("rostorage")


def _holder(info: VphoneInfo) -> int:
    """The pid of the phone's holder (its namespaces' owner): a descendant of the vphone process."""
    def parent(pid: int) -> int:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            if argv[:2] != [b"sleep", b"2147483647"]:
                continue
            pid = int(entry)
            while pid > 1:
                pid = parent(pid)
                if pid == info.pid:
                    return int(entry)
        except (OSError, ValueError):
            continue
    raise AssertionError(f"no holder under vphone pid {info.pid}")


def _in_phone(info: VphoneInfo, *cmd: str) -> None:
    holder = _holder(info)
    done = subprocess.run([NSENTER, "-t", str(holder), "-m", *cmd], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, f"{' '.join(cmd)} in holder {holder}: {done.stderr}"


@contextmanager
def _read_only(info: VphoneInfo, root: str) -> Iterator[None]:
    """The storage root read-only until the block ends: a read-only bind over it (a remount of /data itself is
    refused while the runner holds a file open for writing; what it has open stays writable, every new
    write fails)."""
    _in_phone(info, "mount", "--bind", root, root)
    try:
        _in_phone(info, "mount", "-o", "remount,ro,bind", root)
        yield
    finally:
        _in_phone(info, "umount", root)


def test_a_read_only_storage_is_one_clear_line_and_resume_finishes(python_device: AndroidDevice,
                                                                  python_vphone: VphoneInfo | None,
                                                                  tmp_path: Path) -> None:
    if python_vphone is None:
        pytest.skip("remounts the phone's /data: virtual phone only")
    device = python_device
    spec = tmp_path / "ro.toml"
    spec.write_text(SPEC)
    key = f"{device.serial}@{device.adb.server}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400"}
    out = tmp_path / "results"
    argv = [sys.executable, "-m", "pipeline.cli.app", "run", str(spec), "--serial", key, "--out", str(out),
            "--runtime", "ort", "--set", "train.epochs=60"]
    with ExitStack() as read_only:
        with reaped(subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT)) as proc:
            folder = wait_for("the results folder", lambda: next(out.glob("rostorage-*"), None))
            # the storage turns read-only while the run is held between two sessions: the next session's start
            # meets it on the phone
            with held_between_sessions(proc, device, folder, 3) as held:
                try:
                    read_only.enter_context(_read_only(python_vphone, device.storage_path()))
                finally:
                    continue_runner(device, held.pid)
            record0 = folder / "sessions" / f"{folder.name}-task{held.task}" / "task.json"
            text = proc.communicate(timeout=900)[0].decode()
    assert proc.returncode == 1, text
    assert "Traceback" not in text and "&&" not in text and "exit 1" not in text, text
    errors = [line for line in text.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, text
    flat = " ".join(text.split())
    assert f"error: [{device.serial}] the phone's storage is read-only (" in flat, text
    assert flat.rstrip().endswith("reboot the phone (or free and remount the storage), then continue the run with --resume"), text
    before = record0.read_bytes()
    resume = f"edgecl run {spec} --resume {folder} --serial {key} --runtime ort --set train.epochs=60"
    again = subprocess.run([sys.executable, "-m", "pipeline.cli.app", *shlex.split(resume)[1:]], capture_output=True,
                           env=env, cwd=ROOT, timeout=900)
    assert again.returncode == 0, again.stdout.decode() + again.stderr.decode()
    summary = json.loads((folder / "summary.json").read_text())
    assert [t["task"] for t in summary["tasks"]] == [0, 1, 2]
    assert record0.read_bytes() == before
