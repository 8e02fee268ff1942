"""Energy by device time on the virtual phone: a relaunched runner and a SIGSTOP'd runner
each get their own phase, program loads are their own phases, nothing is lost or double-counted
(the phases sum to the session, the session lies within the rails' difference around it), and a
native-runner session on the stock phone (shell-only sampler on CLOCK_BOOTTIME) reports its energy
from the ODPM rails through the runner's t_boot stamps."""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from android_harness.android_device import AndroidDevice
from android_harness.power import power_sampling
from android_harness.session import SessionDriver, SessionHandle
from pipeline.config import parse_spec
from pipeline.device_run import prepare_device_run
from pipeline.energy import SessionEnergy, measure_session, read_rails_log
from pipeline.errors import SessionError
from pipeline.experiment import run_experiment

STOP_S = 4.0            # under the driver's STOPPED_MAX_S: the stream goes on after SIGCONT


def _spec(runtime: str, epochs: int) -> object:
    """A session of several seconds: the native runner on the stock phone runs arm64 under qemu (slower)."""
    hidden = [256, 256] if runtime == "ort" else [64, 64]
    return parse_spec({"name": "phases", "seed": 1, "data": {"kind": "digits", "tasks": 1, "classes_per_task": 2},
                       "model": {"kind": "mlp", "hidden": hidden},
                       "train": {"method": "er", "epochs": epochs, "batch_size": 16, "lr": 0.05},
                       "replay": {"em_size": 50, "sb_size": 200, "swap_ratio": 0.0},
                       "export": {"runtime": runtime}, "power": {"rate_hz": 10, "idle_seconds": 0}})


def _wait_for(driver: SessionDriver, handle: SessionHandle, kind: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not any(e["type"] == kind for e in driver.poll(handle).events + handle.events):
        assert time.monotonic() < deadline, f"no {kind} event"
        time.sleep(0.1)


def _by(m: SessionEnergy, name: str) -> list:
    return [r for r in m.rows if r.kind == "phase" and r.name == name]


def _check_sums(m: SessionEnergy, folder: Path) -> None:
    """Phases sum to the session; the session lies within the rails' difference around it."""
    s = m.session
    assert s is not None and s.energy_j is not None, (m.error, s.note if s else None, m.notes)
    phases = [r for r in m.rows if r.kind == "phase"]
    assert sum(r.energy_j for r in phases) == pytest.approx(s.energy_j, abs=1e-9)
    assert sum(r.duration_s for r in phases) == pytest.approx(s.duration_s, abs=1e-6)
    if s.source == "odpm_rails":
        rails = read_rails_log(folder / "rails.txt")
        inner = rails.total_j[np.searchsorted(rails.t, s.t1, side="right") - 1] - rails.total_j[np.searchsorted(rails.t, s.t0)]
        outer = rails.total_j[np.searchsorted(rails.t, s.t1)] - rails.total_j[np.searchsorted(rails.t, s.t0, side="right") - 1]
        assert inner - 1e-9 <= s.energy_j <= outer + 1e-9, (inner, s.energy_j, outer)


# (the device fixture, the runtime): the Python runner on the termux-style phone (Python sampler,
# CLOCK_MONOTONIC), the native runner on the stock phone (shell-only sampler, CLOCK_BOOTTIME)
RUNNERS = [pytest.param(("python_device", "ort"), id="python"), pytest.param(("device", "executorch"), id="native")]


def _sampled(device: AndroidDevice, tmp_path: Path, spec, sid: str, disturb) -> tuple[SessionEnergy, Path, list[dict]]:
    run = prepare_device_run(spec, device, run_id=f"phases-{sid}-{int(time.time())}", runtime=spec.export.runtime, progress=False)
    driver = SessionDriver(device)
    ss = run.session_spec(f"{sid}-{int(time.time())}", [run.data.tasks[0]])
    ss.checkpoint_every = 20
    with power_sampling(device, f"{driver.remote_dir(ss.session_id)}/power.csv", 10):
        handle = driver.start(ss)
        disturb(driver, handle)
        result = driver.stream(handle, progress=False)
    assert result["status"] == "ok", result
    local = driver.collect(handle, tmp_path / sid)
    return measure_session(local, device.profile), local, handle.events


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_relaunch_and_both_program_loads_are_phases_and_sum_to_the_session(runner, request, tmp_path: Path) -> None:
    device = request.getfixturevalue(runner[0])
    def kill_and_relaunch(driver: SessionDriver, handle: SessionHandle) -> None:
        _wait_for(driver, handle, "checkpoint")
        driver.device.shell(f"kill -9 {handle.pid}")
        with pytest.raises(SessionError, match="died"):
            driver.stream(handle, progress=False)
        driver.relaunch(handle)

    m, local, events = _sampled(device, tmp_path, _spec(runner[1], 80), "relaunch", kill_and_relaunch)
    starts = [e for e in events if e["type"] == "session_start"]
    assert len(starts) == 2
    s = m.session
    assert s.t0 == pytest.approx(m.timeline.start) and "2 runners" in s.note
    loads = _by(m, "loading")
    assert len(loads) == 2 and all(r.energy_j > 0 for r in loads)
    assert loads[0].t0 == pytest.approx(m.timeline.start)               # the first runner's process start
    (relaunch,) = _by(m, "relaunch")
    assert relaunch.duration_s >= 2.0 and relaunch.energy_j > 0        # the watchdog's grace, then the relaunch
    assert relaunch.t1 == pytest.approx(loads[1].t0)                    # the second runner's launch
    train = _by(m, "training")
    assert len(train) == 2 and "no end event" in train[0].note
    if device.profile.simulated:
        assert s.source == "odpm_rails"
    _check_sums(m, local)


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_sigstop_pause_is_its_own_phase_at_idle_power(runner, request, tmp_path: Path) -> None:
    device = request.getfixturevalue(runner[0])
    def stop_and_continue(driver: SessionDriver, handle: SessionHandle) -> None:
        _wait_for(driver, handle, "step")
        driver.device.shell(f"kill -STOP {handle.pid}")
        time.sleep(STOP_S)
        driver.device.shell(f"kill -CONT {handle.pid}")

    m, local, _ = _sampled(device, tmp_path, _spec(runner[1], 60), "pause", stop_and_continue)
    (paused,) = _by(m, "paused")
    assert STOP_S - 1.5 <= paused.duration_s <= STOP_S + 0.5, paused
    (train,) = _by(m, "training")
    assert train.t0 <= paused.t0 and paused.t1 <= train.t1 + 1e-6      # inside training, not billed to it
    assert paused.mean_power_w < train.mean_power_w                      # a stopped runner uses no CPU
    if device.profile.simulated:
        assert m.session.source == "odpm_rails"
    _check_sums(m, local)


def test_a_native_session_on_the_stock_phone_reports_energy_from_the_rails(device: AndroidDevice,
                                                                           tmp_path: Path) -> None:
    if device.profile.python_cmd:
        pytest.skip("this phone has Python: its sessions need not be native")
    spec = _spec("executorch", 40)
    spec.data.tasks = 2
    folder = run_experiment(spec, device, tmp_path, progress=False)
    env = json.loads((folder / "env.json").read_text())
    summary = json.loads((folder / "summary.json").read_text())
    assert env["runner"] == "native"
    for task in summary["tasks"]:
        rec = task["energy"]
        assert task["energy_j"] is not None and rec["source"], rec
        if device.profile.simulated:
            assert rec["source"] == "odpm_rails" and rec["resolution_s"] > 0
        assert sum(rec["phases_j"].values()) == pytest.approx(task["energy_j"], abs=1e-5)
        assert task["loading_j"] > 0 and task["training_j"] > 0
        local = folder / "sessions" / task["session_id"]
        assert "# clock=CLOCK_BOOTTIME" in (local / "power.csv").read_text()       # the shell-only sampler
        m = measure_session(local, device.profile)
        assert m.session.energy_j == pytest.approx(task["energy_j"], abs=1e-9)
        _check_sums(m, local)
    assert summary["loading_j"] == pytest.approx(sum(t["loading_j"] for t in summary["tasks"]))
