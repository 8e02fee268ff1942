"""Faults a session must survive or end cleanly on . Each case starts a real
session on the device and injects the fault from the device shell; the host's ``stream`` must end with a
``SessionError`` that says which fault, keep every event it had read, and leave the session folder."""
from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest

import android_harness.session as session_mod
from android_harness.android_device import AndroidDevice
from android_harness.session import SessionDriver, SessionHandle
from android_harness.shell_quote import quote
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.device_run import prepare_device_run
from pipeline.errors import SessionError

from device_tests._paused_runner import (STACKS_ON_ABORT, as_from_a_terminal, continue_runner, host_frozen,
                                         output_or_stacks, pause_runner, session_states)
from device_tests._small_run import edgecl_argv, small_run_spec

ROOT = Path(__file__).resolve().parents[1]


def long_spec() -> ExperimentSpec:
    return parse_spec({"name": "faults", "seed": 0, "data": {"kind": "digits", "tasks": 5, "classes_per_task": 2},
                       "model": {"kind": "mlp", "hidden": [64]},
                       "train": {"method": "er", "epochs": 1000, "batch_size": 32, "lr": 0.05},
                       "replay": {"em_size": 100, "sb_size": 400}, "power": {"enabled": False}})


@pytest.fixture()
def running(python_device: AndroidDevice, request: pytest.FixtureRequest) -> tuple[SessionDriver, SessionHandle]:
    """A one-shot session well into its first task (an epoch event has arrived), its runner paused there so
    each test acts on a session that cannot end first (its two tasks' epochs would take minutes)."""
    spec = long_spec()
    device = python_device
    run = prepare_device_run(spec, device, f"faults-{request.node.name[:20]}-{int(time.time())}", runtime="ort",
                             progress=False)
    driver = SessionDriver(device, served=False)
    handle = driver.start(run.session_spec(f"{run.run_id}-t0", run.data.tasks[:2]))
    deadline = time.monotonic() + 120
    while not any(e["type"] == "epoch" for e in handle.events):
        driver.poll(handle)
        assert time.monotonic() < deadline, "no epoch event within 120 s"
        time.sleep(0.2)
    pid, ended = pause_runner(device, handle.remote_dir)
    assert (pid, ended) == (handle.pid, False), "the session ended before the test could pause it"
    yield driver, handle
    device.shell(f"kill -CONT {handle.pid}; kill -9 {handle.pid}; true", check=False)


def _read_so_far(handle: SessionHandle) -> list[int]:
    return [e["seq"] for e in handle.events]


def test_events_removed_mid_task_ends_the_stream(python_device: AndroidDevice, running) -> None:
    device = python_device
    driver, handle = running
    before = _read_so_far(handle)
    device.shell(f"rm -f {quote(handle.remote_dir + '/events.jsonl')}")
    t0 = time.monotonic()
    with pytest.raises(SessionError) as err:
        driver.stream(handle, progress=False)
    assert err.value.phase == "protocol"
    assert "events.jsonl is missing on the device" in str(err.value)
    assert _read_so_far(handle)[: len(before)] == before  # nothing the host had read is lost
    assert time.monotonic() - t0 < 60
    assert device.shell(f"test -f {quote(handle.remote_dir + '/session.json')} && echo kept").stdout.strip() == "kept"


def test_a_paused_runner_ends_the_stream_saying_how_to_continue_it(python_device: AndroidDevice, running, monkeypatch: pytest.MonkeyPatch) -> None:
    device = python_device
    driver, handle = running
    monkeypatch.setattr(session_mod, "STOPPED_MAX_S", 2.0)
    t0 = time.monotonic()
    with pytest.raises(SessionError) as err:
        driver.stream(handle, progress=False)
    server = device.adb.server
    assert (err.value.phase, err.value.cause) == ("paused", "paused")
    assert f"runner pid {handle.pid} is paused (SIGSTOP)" in str(err.value)
    assert f"`adb -H {server.host} -P {server.port} -s {device.serial} shell kill -CONT {handle.pid}`" in str(err.value)
    assert time.monotonic() - t0 < 30


def test_killed_runner_ends_the_stream_with_its_log(python_device: AndroidDevice, running) -> None:
    device = python_device
    driver, handle = running
    device.shell(f"kill -9 {handle.pid}")
    with pytest.raises(SessionError) as err:
        driver.stream(handle, progress=False)
    assert err.value.phase == "died"
    assert "runner exited without result.json" in str(err.value)
    assert [e["seq"] for e in handle.events] == list(range(len(handle.events)))


CTRL_C_SPEC = small_run_spec("ctrlc")


def _wait_for(what: str, check, proc: subprocess.Popen, seconds: float = 900.0):
    """Until ``check`` holds while ``proc`` (the run) goes on; the bound only catches a hang (the first run
    of a checkout builds the native runner first)."""
    deadline = time.monotonic() + seconds
    while not (got := check()):
        assert proc.poll() is None, f"the run exited ({proc.returncode}) before {what}: {proc.stdout.read().decode()[-3000:]}"
        assert time.monotonic() < deadline, f"no {what} within {seconds:.0f} s"
        time.sleep(0.2)
    return got


@pytest.mark.timeout(1800)            # a checkout's first run builds the native runner
def test_ctrl_c_of_a_run_says_how_to_follow_and_resume_and_loses_nothing(device: AndroidDevice, tmp_path: Path) -> None:
    """Ctrl-C during task 2 of 3 (task 3 when task 2 ended before it was held): exit 130, the session goes on
    on the phone (the `edgecl attach` command is printed), the folder is marked, and the printed `--resume`
    command finishes the run with the completed tasks' records untouched and the interrupted task's session
    followed, not trained again. The run is held at that task: the host frozen, then the phone's runner
    paused, so nothing ends before the Ctrl-C lands."""
    spec = tmp_path / "ctrlc.toml"
    spec.write_text(CTRL_C_SPEC)
    key = f"{device.serial}@{device.adb.server}"
    sets = ["--set", "train.epochs=60"]
    # the runner is paused on purpose for as long as the test arranges the phone: the run waits on it
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400", session_mod.PAUSED_LIMIT_ENV: "600", **STACKS_ON_ABORT}
    out = tmp_path / "results"
    proc = subprocess.Popen(edgecl_argv("run", str(spec), "--serial", key, "--out", str(out), "--runtime", "executorch",
                                    *sets), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT,
                            preexec_fn=as_from_a_terminal)
    paused = None
    try:
        folder = _wait_for("the results folder", lambda: next(out.glob("ctrlc-*"), None), proc)
        sids = [f"{folder.name}-task{t}" for t in range(3)]
        _wait_for("task 1 on the phone", lambda: session_states(device, sids)[0] != "none", proc)
        with host_frozen(proc):                      # the host queues nothing while the phone is arranged
            if session_states(device, sids)[1] == "none":   # task 1 ends, then the runner waits paused
                _wait_for("task 1's end", lambda: session_states(device, sids)[0] == "ended", proc)
            paused = int(device.shell(f"cat {quote(device.storage_path('runner', 'server.pid'))}").stdout)
            device.shell(f"kill -STOP {paused}")
            state = session_states(device, sids)
        task = next((t for t in (1, 2) if state[t] != "ended"), 3)
        assert task < 3, "the run ended before the test could hold it"
        # the paused runner cannot end task `task`; the host queues it (or had)
        _wait_for(f"task {task + 1} queued", lambda: session_states(device, sids)[task] != "none", proc)
        with host_frozen(proc):
            if task == 1 and session_states(device, sids)[1] == "queued":   # task 2 starts training, the host frozen
                continue_runner(device, paused)
                _wait_for("task 2 started", lambda: session_states(device, sids)[1] != "queued", proc)
                device.shell(f"kill -STOP {paused}")
                task = 1 if session_states(device, sids)[1] == "started" else 2
            if task == 1:
                proc.send_signal(signal.SIGINT)      # handled first thing when the host continues
        if task == 2:                                # task 3 queued for the paused runner: it cannot start
            _wait_for("task 3 queued", lambda: session_states(device, sids)[2] != "none", proc)
            proc.send_signal(signal.SIGINT)
        sid = sids[task]
        events = f"{device.storage_path('sessions', sid)}/events.jsonl"
        first_event = device.shell(f"head -n 1 {quote(events)} 2>/dev/null", check=False).stdout
        text = output_or_stacks(proc, 120)
    finally:
        if paused is not None:
            continue_runner(device, paused)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, text
    flat = " ".join(text.split())
    assert f"{task} of 3 tasks complete in {folder}" in flat, text
    assert f"goes on on the phone; follow it with: edgecl attach {sid} --serial {key}" in flat, text
    resume = f"edgecl run {spec} --resume {folder} --serial {key} --set train.epochs=60 --runtime executorch"
    assert f"continue this run from its last completed task with: {resume}" in flat, text
    marker = json.loads((folder / "interrupted.json").read_text())
    assert (marker["completed_tasks"], marker["session"], marker["session_on_phone"]) == (list(range(task)), sid, True)
    records = [folder / "sessions" / f"{folder.name}-task{t}" / "task.json" for t in range(task)]
    before = [r.read_bytes() for r in records]
    assert task > 1 or first_event                                              # held mid-training
    again = subprocess.run(edgecl_argv(*shlex.split(resume)[1:]), capture_output=True, env=env, cwd=ROOT, timeout=600)
    assert again.returncode == 0, again.stdout.decode() + again.stderr.decode()
    summary = json.loads((folder / "summary.json").read_text())
    assert [t["task"] for t in summary["tasks"]] == [0, 1, 2] and not (folder / "interrupted.json").exists()
    assert [r.read_bytes() for r in records] == before                         # completed tasks kept as recorded
    pulled = (folder / "sessions" / sid / "events.jsonl").read_text()
    assert pulled.startswith(first_event)                                       # the same session, followed
    assert sum(json.loads(e)["type"] == "session_start" for e in pulled.splitlines()) == 1    # never trained twice
