"""Faults a session must survive or end cleanly on (issue: faults and bad input). Each case starts a real
session on the device and injects the fault from the device shell; the host's ``stream`` must end with a
``SessionError`` that says which fault, keep every event it had read, and leave the session folder."""
from __future__ import annotations

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


def long_spec() -> ExperimentSpec:
    return parse_spec({"name": "faults", "seed": 0, "data": {"kind": "digits", "tasks": 5, "classes_per_task": 2},
                       "model": {"kind": "mlp", "hidden": [64]},
                       "train": {"method": "er", "epochs": 200, "batch_size": 32, "lr": 0.05},
                       "replay": {"em_size": 100, "sb_size": 400}, "power": {"enabled": False}})


@pytest.fixture()
def running(python_device: AndroidDevice, request: pytest.FixtureRequest) -> tuple[SessionDriver, SessionHandle]:
    """A one-shot session well into its first task (an epoch event has arrived)."""
    spec = long_spec()
    device = python_device
    run = prepare_device_run(spec, device, f"faults-{request.node.name[:20]}-{int(time.time())}", runtime="ort",
                             progress=False)
    driver = SessionDriver(device, served=False)
    handle = driver.start(run.session_spec(f"{run.run_id}-t0", run.data.tasks[:1]))
    deadline = time.monotonic() + 120
    while not any(e["type"] == "epoch" for e in handle.events):
        driver.poll(handle)
        assert time.monotonic() < deadline, "no epoch event within 120 s"
        time.sleep(0.2)
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


def test_stopped_runner_ends_the_stream(python_device: AndroidDevice, running, monkeypatch: pytest.MonkeyPatch) -> None:
    device = python_device
    driver, handle = running
    monkeypatch.setattr(session_mod, "STOPPED_MAX_S", 2.0)
    device.shell(f"kill -STOP {handle.pid}")
    t0 = time.monotonic()
    with pytest.raises(SessionError) as err:
        driver.stream(handle, progress=False)
    assert err.value.phase == "died"
    assert f"runner pid {handle.pid} is stopped (SIGSTOP)" in str(err.value)
    assert f"kill -CONT {handle.pid}" in str(err.value)
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
