"""An adb server of edgecl's killed during a run -- the one ``edgecl vphone start`` keeps for virtual
phones, or the private one ``edgecl run --vphone`` starts for its phone: edgecl starts it again on its
port, reconnects the phone, and the run finishes with every task, no traceback and no internal command in
what it printed; no session is trained twice (one runner start in each session's events). The server dies
while the host is frozen just after its first task's record (two tasks still to run): a command of the
host's in flight then is cut mid-answer, any later one finds no server; each must go on. Killed during
``edgecl push``, the push starts again on the revived server."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from android_harness import vphone
from android_harness.adb import Adb
from android_harness.android_device import AndroidDevice
from android_harness.deploy import TMP_SUFFIX
from android_harness.private_server import ensure_server, running_server, stop_server
from android_harness.shell_quote import quote
from android_harness.vphone.presets import PYTHON_PRESET
from android_harness.vphone_fleet import descendants
from device_tests._paused_runner import host_frozen
from device_tests._small_run import reaped, small_run_spec, wait_for

ROOT = Path(__file__).resolve().parents[1]
SPEC = small_run_spec("lostadb", epochs=40)

pytestmark = pytest.mark.skipif(bool(os.environ.get("ANDROID_SERIAL")), reason="kills edgecl's own adb server: virtual phone only")


def _adb_servers_under(pid: int) -> list[int]:
    """The adb server processes the host process started (``adb ... server``)."""
    found = []
    for child in descendants({pid}):
        try:
            argv = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[0].endswith(b"adb") and b"server" in argv:
            found.append(child)
    return found


def _run_killing_server(tmp_path: Path, edgecl_home: Path, device_args: list[str],
                        server_pid: Callable[[subprocess.Popen], int]) -> tuple[Path, int]:
    """``edgecl run`` of the small spec; its server (``server_pid``) SIGKILLed with the host frozen after
    the first task's record. Checks the run's output and records; returns its folder and the killed pid."""
    spec = tmp_path / "lostadb.toml"
    spec.write_text(SPEC)
    out = tmp_path / "results"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400", "EDGECL_HOME": str(edgecl_home)}
    with reaped(subprocess.Popen([sys.executable, "-m", "pipeline.cli.app", "run", str(spec), *device_args, "--out", str(out)],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT)) as proc:
        record0 = wait_for("task 1 record", lambda: next(iter(out.glob("lostadb-*/sessions/*-task0/task.json")), None))
        folder = record0.parents[2]
        pid = server_pid(proc)
        with host_frozen(proc):
            os.kill(pid, signal.SIGKILL)
        text = proc.communicate(timeout=900)[0].decode()
    assert proc.returncode == 0, text
    assert "Traceback" not in text and "&&" not in text, text
    summary = json.loads((folder / "summary.json").read_text())
    assert [t["task"] for t in summary["tasks"]] == [0, 1, 2]
    for task in summary["tasks"]:
        events = (folder / "sessions" / f"{folder.name}-task{task['task']}" / "events.jsonl").read_text()
        assert sum(json.loads(line)["type"] == "session_start" for line in events.splitlines()) == 1
    return folder, pid


def test_edgecl_restarts_its_killed_vphone_adb_server_and_the_run_finishes(tmp_path: Path, edgecl_home: Path) -> None:
    server = ensure_server(edgecl_home)
    info = vphone.start(preset=PYTHON_PRESET, server=server, base=edgecl_home, home=tmp_path / "phone")
    try:
        _, pid = _run_killing_server(tmp_path, edgecl_home, ["--serial", info.serial, "--runtime", "ort"],
                                     lambda proc: running_server(edgecl_home)[0])
        revived = running_server(edgecl_home)
        assert revived is not None and revived[1] == server and revived[0] != pid   # the same port, a new process
    finally:
        vphone.stop(info, server, base=edgecl_home)
        stop_server(edgecl_home)


def test_a_vphone_run_restarts_its_killed_private_adb_server_and_finishes(tmp_path: Path, edgecl_home: Path) -> None:
    killed: list[int] = []

    def the_runs_server(proc: subprocess.Popen) -> int:
        servers = _adb_servers_under(proc.pid)
        assert len(servers) == 1, servers
        killed.append(servers[0])
        return servers[0]

    _run_killing_server(tmp_path, edgecl_home, ["--vphone"], the_runs_server)
    assert killed


def test_a_push_cut_by_its_killed_adb_server_is_pushed_again(tmp_path: Path, edgecl_home: Path) -> None:
    """``edgecl push`` of a 64 MiB file through edgecl's vphone adb server, the server killed mid-push (the
    host frozen while the file's temporary copy is on the phone and the final one is not): the push starts
    again on the revived server and exits 0 with the file verified in place."""
    server = ensure_server(edgecl_home)
    info = vphone.start(preset=PYTHON_PRESET, server=server, base=edgecl_home, home=tmp_path / "phone")
    try:
        export = tmp_path / "bigexport"
        export.mkdir()
        blob = os.urandom(64 * 2**20)
        (export / "blob.bin").write_bytes(blob)
        digest = hashlib.sha256(blob).hexdigest()
        manifest = export / "manifest.json"
        manifest.write_text(json.dumps({"format": "edgecl-manifest/1",
                                        "files": [{"path": "blob.bin", "sha256": digest, "size": len(blob)}]}))
        device = AndroidDevice(Adb(info.serial, server))
        final = device.storage_path("models", "bigexport", "blob.bin")
        state = f"if [ -f {quote(final)} ]; then echo final; elif [ -s {quote(final + TMP_SUFFIX)} ]; then echo pushing; else echo none; fi"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400", "EDGECL_HOME": str(edgecl_home)}
        killed: list[int] = []
        with reaped(subprocess.Popen([sys.executable, "-m", "pipeline.cli.app", "push", str(manifest), "--serial",
                                      f"{info.serial}@{server}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=env, cwd=ROOT)) as proc:
            def killed_mid_push() -> bool:
                """With the host frozen: the server killed if the push is under way (True), else nothing."""
                with host_frozen(proc):
                    seen = device.shell(state).stdout.strip()
                    assert seen != "final", "the push ended before the test could cut it"
                    if seen == "pushing":
                        found = running_server(edgecl_home)
                        assert found is not None
                        os.kill(found[0], signal.SIGKILL)
                        killed.append(found[0])
                        return True
                return False

            wait_for("the push under way", killed_mid_push, seconds=120)
            text = proc.communicate(timeout=600)[0].decode()
        assert proc.returncode == 0, text
        assert "Traceback" not in text, text
        revived = running_server(edgecl_home)
        assert revived is not None and revived[1] == server and revived[0] not in killed   # a new server, the same port
        device = AndroidDevice(Adb(info.serial, server))
        assert device.shell(f"sha256sum {quote(final)}").stdout.split()[0] == digest
    finally:
        vphone.stop(info, server, base=edgecl_home)
        stop_server(edgecl_home)
