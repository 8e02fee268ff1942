"""A runner paused (SIGSTOP) during a run: after the bound, ``edgecl run`` ends with one line saying it is
paused, the adb command that continues it through the adb server and serial the run used, and the
``--resume`` command; once continued that command finishes the run, following the paused session
(never training it again) and keeping the completed task as recorded. The run is held between two
sessions (the host frozen, the phone's persistent runner paused while idle), so the next session cannot
start before the host sees the runner paused, and it stays paused while the host decides: nothing here
races the clock."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

from android_harness.adb_server import adb_binary
from android_harness.android_device import AndroidDevice
from android_harness.shell_quote import quote
from device_tests._paused_runner import held_between_sessions
from device_tests._small_run import edgecl_argv, reaped, small_run_spec, wait_for

ROOT = Path(__file__).resolve().parents[1]
SPEC = small_run_spec("paused")


def test_a_paused_runner_is_reported_paused_and_resume_loses_nothing(python_device: AndroidDevice, tmp_path: Path) -> None:
    device = python_device
    spec = tmp_path / "paused.toml"
    spec.write_text(SPEC)
    key = f"{device.serial}@{device.adb.server}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400"}
    out = tmp_path / "results"
    with reaped(subprocess.Popen(edgecl_argv("run", str(spec), "--serial", key, "--out", str(out), "--runtime", "ort",
                                             "--set", "train.epochs=60"), stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, env=env, cwd=ROOT)) as proc:
        pid = None
        try:
            folder = wait_for("the results folder", lambda: next(out.glob("paused-*"), None))
            with held_between_sessions(proc, device, folder, 3) as held:
                pid = held.pid
            record0 = folder / "sessions" / f"{folder.name}-task{held.task}" / "task.json"
            sid = f"{folder.name}-task{held.task + 1}"
            rdir = device.storage_path("sessions", sid)
            text = proc.communicate(timeout=300)[0].decode()
            paused_events = device.shell(f"cat {quote(rdir)}/events.jsonl 2>/dev/null", check=False).stdout   # no more can come
            assert proc.returncode == 1, text
            assert "Traceback" not in text
            errors = [line for line in text.splitlines() if line.startswith("error:")]
            assert len(errors) == 1, text
            flat = " ".join(text.split())
            server = device.adb.server
            cont = f"adb -H {server.host} -P {server.port} -s {device.serial} shell kill -CONT {pid}"
            resume = f"edgecl run {spec} --resume {folder} --serial {key} --set train.epochs=60 --runtime ort"
            assert f"session {sid} paused: runner pid {pid} is paused (SIGSTOP)" in flat, text
            assert f"`{cont}` continues it" in flat and flat.rstrip().endswith(f"once it runs again: {resume}"), text
            assert re.search(r"\bdevice log:", flat) is None
            # the printed command, as given, reaches this phone and continues the session
            subprocess.run([adb_binary(), *shlex.split(cont)[1:]], check=True, timeout=60)
            before = record0.read_bytes()
            again = subprocess.run(edgecl_argv(*shlex.split(resume)[1:]), capture_output=True, env=env, cwd=ROOT, timeout=900)
            assert again.returncode == 0, again.stdout.decode() + again.stderr.decode()
            summary = json.loads((folder / "summary.json").read_text())
            assert [t["task"] for t in summary["tasks"]] == [0, 1, 2]
            assert record0.read_bytes() == before                                       # kept as recorded
            pulled = (folder / "sessions" / sid / "events.jsonl").read_text()
            assert pulled.startswith(paused_events)                                     # the same session, followed
            assert sum(json.loads(line)["type"] == "session_start" for line in pulled.splitlines()) == 1
        finally:
            if pid is not None:
                device.shell(f"kill -CONT {pid}", check=False)  # a failed check leaves no paused runner behind
