"""Sessions on a device (the virtual phone unless ANDROID_SERIAL is set): the whole ``edgecl run`` path
(one session per task) on both runtimes conforms to the host trainer — same trace (sample order,
EM, swaps, DDR, evaluation counts), losses within 1e-5 — an adb server kill + phone restart
mid-session, cancel, relaunch after a kill."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from android_harness.adb import Adb

from android_harness.adb_server import ServerAddress, connect, start_private_server
from android_harness.android_device import AndroidDevice
from android_harness.device.events import read_events
from android_harness.session import SessionDriver
from android_harness.vphone.manager import free_port
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.device_run import prepare_device_run
from pipeline.experiment import run_experiment
from tests._host_conformance import assert_conforms_to_host, run_sessions
from android_harness.vphone.presets import PYTHON_PRESET
from device_tests._paused_runner import pause_runner

TOLERANCE_POINTS = 2.0


@pytest.fixture(scope="module")
def device(python_device: AndroidDevice) -> AndroidDevice:
    """Training sessions run the Python device runner: the termux-style phone until the native runner lands."""
    return python_device


def split_digits(sparcl: bool = False, per_class: int = 0, **train) -> ExperimentSpec:
    return parse_spec({"name": "split-digits-device", "seed": 0,
                       "data": {"kind": "digits", "tasks": 5, "classes_per_task": 2, "max_train_per_class": per_class},
                       "model": {"kind": "mlp", "hidden": [100, 100]},
                       "train": {"method": "derpp", "epochs": 3, "batch_size": 32, "lr": 0.05, **train},
                       "replay": {"em_size": 200, "sb_size": 400, "swap_ratio": 0.5},
                       "sparcl": {"enabled": sparcl, "sparsity": 0.75, "tdm_update_every": 0.34, "ddr_steps": [0.34, 0.67],
                                  "dgm_period": 5},
                       "device": {"trace": True}, "power": {"enabled": False}})


@pytest.mark.parametrize("runtime", ["ort", "executorch"])
def test_edgecl_run_on_the_device_conforms_to_the_host_trainer(device: AndroidDevice, tmp_path: Path, runtime: str) -> None:
    """SparCL-DER++ with Miro's swap, one session per task on the phone (ExecuTorch used to die at task 2:
    TDM read gradients a resumed backend no longer had): the device's trace equals the host trainer's."""
    spec = split_digits(sparcl=True, per_class=60)
    folder = run_experiment(spec, device, tmp_path, runtime=runtime, progress=False)
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["simulated"] == device.profile.simulated and len(summary["tasks"]) == 5
    sessions = run_sessions(folder)
    assert all((s / "result.json").is_file() and (s / "trace.jsonl").is_file() for s in sessions)
    assert (folder / "accuracy_matrix.csv").read_text().count("\n") == 6
    assert_conforms_to_host(spec, folder, tmp_path / "host")


def test_session_survives_adb_server_kill_and_a_lost_link(tmp_path: Path, edgecl_home: Path) -> None:
    """The adb server dies and the link stays down for a while (the phone keeps running, as a phone
    unplugged from USB does); a new server reconnects and the host picks the session up again."""
    if os.environ.get("ANDROID_SERIAL"):
        pytest.skip("kills the adb server: virtual phone only")
    from android_harness import vphone

    port = free_port()
    server_proc = start_private_server(port)
    server = ServerAddress("127.0.0.1", port)
    home = tmp_path / "phone"
    info = vphone.start(preset=PYTHON_PRESET, server=server, base=edgecl_home, home=home)
    try:
        device = AndroidDevice(Adb(info.serial, server))
        spec = split_digits(epochs=150)
        spec.data.tasks = 1
        run = prepare_device_run(spec, device, "restart", runtime="ort", progress=False)
        ss = run.session_spec("restart-s1", [0])
        ss.step_event_every = 5
        driver = SessionDriver(device)
        handle = driver.start(ss)
        while not any(e["type"] == "epoch" for e in driver.poll(handle).events + handle.events):
            time.sleep(0.2)
        seen_before = handle.next_seq
        t_cut = time.clock_gettime(time.CLOCK_MONOTONIC)  # the vphone's runner stamps events on this clock
        server_proc.kill()
        server_proc.wait(timeout=10)
        time.sleep(2.0)
        server_proc = start_private_server(port)
        connect(server, info.serial)
        t_back = time.clock_gettime(time.CLOCK_MONOTONIC)
        result = driver.stream(handle, progress=False)
        assert result["status"] == "ok"
        assert [e["seq"] for e in handle.events] == list(range(len(handle.events)))
        assert handle.events[-1]["type"] == "session_end" and handle.next_seq > seen_before
        assert sum(e["type"] == "session_start" for e in handle.events) == 1  # the runner never restarted
        assert any(t_cut < e["t"] < t_back and e["type"] == "epoch" for e in handle.events)  # trained while cut off
        fresh = SessionDriver(device).attach("restart-s1")  # a host that lost everything reattaches by id
        assert SessionDriver(device).poll(fresh).events == handle.events
        local, _ = read_events(str(driver.collect(handle, tmp_path / "pulled") / "events.jsonl"))
        assert local == handle.events
    finally:
        vphone.stop(info, server, base=edgecl_home)
        server_proc.kill()
        server_proc.wait(timeout=10)


def test_cancel_stops_the_runner_cleanly(device: AndroidDevice) -> None:
    spec = split_digits(epochs=200)
    spec.data.tasks = 1
    run = prepare_device_run(spec, device, "cancel", runtime="ort", progress=False)
    driver = SessionDriver(device)
    handle = driver.start(run.session_spec(f"cancel-{int(time.time())}", [0]))
    while not any(e["type"] == "epoch" for e in driver.poll(handle).events + handle.events):
        time.sleep(0.2)
    driver.cancel(handle)
    result = driver.stream(handle, progress=False)
    assert result["status"] == "cancelled" and result["checkpoint"]
    assert handle.events[-1] == {**handle.events[-1], "type": "session_end", "status": "cancelled"}
    assert {"session_id": handle.session_id, "status": "cancelled"} in driver.list_sessions()


def test_a_killed_runner_is_relaunched_and_resumes(device: AndroidDevice) -> None:
    """kill -9 of the runner on the device: the host sees it died, relaunches it, and it resumes from its
    checkpoint; the event sequence continues without a gap and the run completes."""
    from pipeline.errors import SessionError

    spec = split_digits(epochs=200)
    spec.data.tasks = 1
    run = prepare_device_run(spec, device, "relaunch", runtime="ort", progress=False)
    ss = run.session_spec(f"relaunch-{int(time.time())}", [0])
    ss.checkpoint_every = 20
    driver = SessionDriver(device)
    handle = driver.start(ss)
    deadline = time.monotonic() + 300
    while not any(e["type"] == "checkpoint" for e in handle.events):
        p = driver.poll(handle)
        assert p.alive and p.result is None and time.monotonic() < deadline, \
            f"no checkpoint before the session ended or 300 s passed: alive={p.alive} result={p.result} events={handle.events[-5:]}"
        time.sleep(0.2)
    pid, ended = pause_runner(device, handle.remote_dir)   # held mid-session: the kill cannot come after its end
    assert pid == handle.pid and not ended, f"the session ended before its runner was paused: {handle.events[-3:]}"
    device.shell(f"kill -9 {pid}")
    with pytest.raises(SessionError, match="died"):
        driver.stream(handle, progress=False)
    driver.relaunch(handle)
    result = driver.stream(handle, progress=False)
    assert result["status"] == "ok"
    assert [e["seq"] for e in handle.events] == list(range(len(handle.events)))
    starts = [e for e in handle.events if e["type"] == "session_start"]
    assert len(starts) == 2 and starts[1]["resumed_from"]


def test_served_sessions_share_one_runner_and_cancel(device: AndroidDevice) -> None:
    """The persistent runner: a queued session cancelled before its turn ends "cancelled" unrun, the running
    one cancels cleanly, and a later session is served by the same process."""
    spec = split_digits(epochs=200)
    spec.data.tasks = 1
    run = prepare_device_run(spec, device, "served", runtime="ort", progress=False)
    driver = SessionDriver(device, served=True)
    stamp = int(time.time())
    long_ = driver.start(run.session_spec(f"served-long-{stamp}", [0]))
    queued = driver.start(run.session_spec(f"served-queued-{stamp}", [0]))
    assert long_.pid is not None and queued.pid == long_.pid
    while not any(e["type"] == "epoch" for e in driver.poll(long_).events + long_.events):
        time.sleep(0.2)
    driver.cancel(queued)
    driver.cancel(long_)
    assert driver.stream(long_, progress=False)["status"] == "cancelled"
    r_queued = driver.stream(queued, progress=False)
    assert r_queued["status"] == "cancelled" and r_queued["iterations"] == 0
    short = run.session_spec(f"served-short-{stamp}", [0])
    short.train.epochs = 1
    handle = driver.start(short)
    assert handle.pid == long_.pid
    result = driver.stream(handle, progress=False)
    assert result["status"] == "ok" and result["evals"]
    assert [e["seq"] for e in handle.events] == list(range(len(handle.events)))
    deadline = time.time() + 10            # the heartbeat publishes "no current session" within a second
    stopped = driver.stop_idle_server()
    while not stopped and time.time() < deadline:
        time.sleep(0.2)
        stopped = driver.stop_idle_server()
    assert stopped, device.shell(f"cat {device.storage_path('runner/server.json')}", check=False).stdout
    # SIGKILLed: a loaded machine takes a moment to tear a large process down (state R until it is gone)
    state, gone_by = "R", time.time() + 10
    while state not in ("", "Z") and time.time() < gone_by:
        state = device.shell(f"cat /proc/{long_.pid}/stat 2>/dev/null | cut -d' ' -f3", check=False).stdout.strip()
        time.sleep(0.1)
    assert state in ("", "Z"), f"idle server {long_.pid} still running 10 s after SIGKILL (state {state})"
    assert driver.stop_idle_server() is False


def test_a_killed_server_is_relaunched_and_the_session_resumes(device: AndroidDevice) -> None:
    from pipeline.errors import SessionError

    spec = split_digits(epochs=60)
    spec.data.tasks = 1
    run = prepare_device_run(spec, device, "served-kill", runtime="ort", progress=False)
    ss = run.session_spec(f"served-kill-{int(time.time())}", [0])
    ss.checkpoint_every = 20
    driver = SessionDriver(device, served=True)
    handle = driver.start(ss)
    while not any(e["type"] == "checkpoint" for e in driver.poll(handle).events + handle.events):
        time.sleep(0.2)
    old = handle.pid
    device.shell(f"kill -9 {old}")
    with pytest.raises(SessionError, match="died"):
        driver.stream(handle, progress=False)
    driver.relaunch(handle)
    assert handle.pid is not None and handle.pid != old
    result = driver.stream(handle, progress=False)
    assert result["status"] == "ok"
    starts = [e for e in handle.events if e["type"] == "session_start"]
    assert len(starts) == 2 and starts[1]["resumed_from"]
    assert [e["seq"] for e in handle.events] == list(range(len(handle.events)))
