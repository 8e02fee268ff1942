"""Energy of real on-device training steps: twice the steps take about twice the energy (+-15%)
above the idle baseline measured first.

The runs go x1, x2, x1 and x2 is held against the mean of the two x1 runs. On a real phone the
expected ratio is 2. The virtual phone's power model charges CPU seconds (vphone/power.py: active
power is linear in the phone's processes' CPU time), and on a shared host the CPU time of the same work
is not fixed: in one CI run the first x1 took 14.4 s and the second 10.0 s, CPU seconds and energy
alike (the host's stolen time is billed to the running process). There the expected ratio is the ratio
of CPU seconds the runner itself reported (its heartbeats) over the training phases: what the model
charged for, so the test still fails if the trace, the phase windows, the gauge lag or the idle
subtraction bill energy to the wrong time."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from android_harness.android_device import AndroidDevice
from android_harness.device.events import read_events
from android_harness.power import power_sampling
from android_harness.session import SessionDriver
from pipeline.config import parse_spec
from pipeline.device_run import prepare_device_run
from pipeline.energy import idle_baseline, measure_session
from pipeline.energy.standalone import measure_idle_baseline

EPOCHS = 1000         # the x2 run: about 16 s of training here (x1 about 8 s): all windows span many periods of the
                      # best counter (ODPM rails, 1 s snapshots) and their bound stays under PRECISE_REL of their energy;
                      # at 240 epochs x1 spanned 2 rail periods (its partial intervals moved the ratio to 2.4), at 720
                      # x1's 5.9 s once had a bound of 1.34 J, just over 10% of its energy, so it was not precise


@pytest.fixture(scope="module")
def device(python_device: AndroidDevice) -> AndroidDevice:
    """Training sessions run the Python device runner: the termux-style phone until the native runner lands."""
    return python_device


def _training_cpu_s(session_dir: Path) -> float:
    """The runner's CPU seconds over its training phase: its heartbeats' ``cpu_s`` interpolated at
    the phase's start and end events (beats come every 0.5 s; training runs for seconds)."""
    events, _ = read_events(str(session_dir / "events.jsonl"))
    beats = [(e["t"], e["cpu_s"]) for e in events if e["type"] == "heartbeat"]
    (t0,) = [e["t"] for e in events if e["type"] == "phase_start" and e["phase"] == "training"]
    (t1,) = [e["t"] for e in events if e["type"] == "phase_end" and e["phase"] == "training"]
    t, cpu = np.array(beats).T
    return float(np.interp(t1, t, cpu) - np.interp(t0, t, cpu))


def _x2_over_x1(by_tag: dict[str, float]) -> float:
    """x2's figure over the mean of the two x1 runs'."""
    return by_tag["x2"] / ((by_tag["x1a"] + by_tag["x1b"]) / 2)


def _spec():
    return parse_spec({"name": "power2x", "seed": 1,
                       "data": {"kind": "digits", "tasks": 2, "classes_per_task": 2},
                       "model": {"kind": "mlp", "hidden": [512, 512]},   # steps heavy enough for seconds-long windows
                       "train": {"method": "er", "epochs": EPOCHS, "batch_size": 16, "lr": 0.05},
                       "replay": {"em_size": 50, "sb_size": 200, "swap_ratio": 0.0},
                       "power": {"rate_hz": 10, "idle_seconds": 0}})


def test_twice_the_training_steps_take_about_twice_the_energy(device: AndroidDevice, tmp_path: Path,
                                                              edgecl_home: Path) -> None:
    spec = _spec()
    run = prepare_device_run(spec, device, run_id="power2x", runtime="ort", progress=False,
                             cache=edgecl_home / "cache")
    driver = SessionDriver(device)
    driver.stop_idle_server()          # a persistent runner left by earlier tests would poll through the baseline
    idle_w, _ = measure_idle_baseline(device, tmp_path / "idle", seconds=3.0)
    assert idle_w is not None and idle_w > 0
    idle = idle_baseline(tmp_path / "idle", device.profile)
    energy, above, seconds, cpu = {}, {}, {}, {}
    for tag, epochs in (("x1a", EPOCHS // 2), ("x2", EPOCHS), ("x1b", EPOCHS // 2)):
        ss = run.session_spec(f"power2x-{tag}", [run.data.tasks[0]], epochs=epochs)
        # power_sampling drains on exit: the gauge reports the last period one refresh late
        with power_sampling(device, f"{driver.remote_dir(ss.session_id)}/power.csv", 10):
            handle = driver.start(ss)
            result = driver.stream(handle, progress=False)
        assert result["status"] == "ok", result
        local = driver.collect(handle, tmp_path / tag)
        rows = measure_session(local, device.profile, idle=idle).rows
        session = next(r for r in rows if r.kind == "session")
        assert session.energy_j is not None and session.source, session.note
        assert sum(r.energy_j for r in rows if r.kind == "phase") == pytest.approx(session.energy_j, abs=1e-9)
        train = [r for r in rows if r.kind == "phase" and r.phase == "training"]
        assert len(train) == 1 and train[0].energy_j is not None, [r.note for r in rows]
        assert train[0].precise, f"{tag}: {train[0].note} ({train[0].duration_s:.2f} s on {train[0].source})"
        energy[tag], above[tag], seconds[tag] = train[0].energy_j, train[0].above_idle_j, train[0].duration_s
        cpu[tag] = _training_cpu_s(local)
    # Above the idle baseline the energy is the work's own, independent of how long other load on a
    # shared CI machine stretched the wall time (the idle share scales with wall time, not steps).
    ratio, cpu_ratio = _x2_over_x1(above), _x2_over_x1(cpu)
    # simulated: the charged CPU seconds are known, so the bound is tighter (measured 2.4% off here)
    expected, rel = (cpu_ratio, 0.10) if device.profile.simulated else (2.0, 0.15)
    msg = (f"E={energy} J, above idle ({idle_w:.3f} W) {above} J, over {seconds} s, runner CPU {cpu} s "
           f"(CPU ratio {cpu_ratio:.3f}, simulated={device.profile.simulated})")
    assert ratio == pytest.approx(expected, rel=rel), msg
