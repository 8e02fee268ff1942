"""Power service on a device (the vphone unless ANDROID_SERIAL is set): sampler lifecycle, the
unplug/reset guard, charging detection, and energy that scales with the work done."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from android_harness.android_device import AndroidDevice
from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.power import PowerSampler, battery_unplugged, power_sampling, record_trace
from pipeline.energy import load_trace
from pipeline.errors import PowerError

# CPU-bound work on the device, stamped with the device's monotonic clock (the clock of events).
WORK = ("import time\nt0 = time.clock_gettime(time.CLOCK_MONOTONIC)\nx = 0\n"
        "for i in range({n}):\n    x += i * i\n"
        "print(t0, time.clock_gettime(time.CLOCK_MONOTONIC))\n")
UNIT = 12_000_000          # ~2-3 s of one core for the smaller run


def battery_state(device: AndroidDevice):
    return parse_dumpsys_battery(device.shell(["dumpsys", "battery"]).stdout)


def test_unplug_reset_always_even_on_error(device: AndroidDevice) -> None:
    with pytest.raises(RuntimeError):
        with battery_unplugged(device):
            assert battery_state(device).updates_stopped
            raise RuntimeError("workload failed")
    assert not battery_state(device).updates_stopped
    with pytest.raises(KeyboardInterrupt):
        with battery_unplugged(device):
            raise KeyboardInterrupt
    assert not battery_state(device).updates_stopped


def test_sampler_service_lifecycle(device: AndroidDevice, remote_dir: str, tmp_path: Path) -> None:
    s = PowerSampler(device, f"{remote_dir}/power.csv", rate_hz=10)
    s.start()
    try:
        assert s.is_alive()
        s.pause(); s.resume()
        time.sleep(1.5)
    finally:
        s.stop()
    assert not s.is_alive()
    s.stop()                                      # idempotent, never raises
    trace = load_trace(s.pull(tmp_path / "power.csv"), device.profile)
    assert trace.simulated == device.profile.simulated
    assert 10 <= len(trace) <= 20 and trace.achieved_rate_hz == pytest.approx(10, rel=0.15)


def test_plugged_phone_is_detected_as_charging(device: AndroidDevice, tmp_path: Path) -> None:
    if not device.profile.simulated:
        pytest.skip("a real phone may or may not be on a charger")
    rec = record_trace(device, 1.5, tmp_path, rate_hz=10, unplug=False)
    assert rec.trace.charging_samples > 0
    with pytest.raises(PowerError, match="charging"):
        rec.trace.energy_j()


def _energy_of_work(device: AndroidDevice, remote_dir: str, tmp_path: Path, n: int, tag: str) -> tuple[float, float]:
    py = device.profile.python_cmd
    remote = f"{remote_dir}/power-{tag}.csv"
    with power_sampling(device, remote, rate_hz=10) as sampler:
        time.sleep(1.0)                                        # let the gauge settle
        out = device.shell([py, "-c", WORK.format(n=n)], timeout=120).stdout.split()
        time.sleep(1.0)
    t0, t1 = float(out[0]), float(out[1])
    trace = load_trace(sampler.pull(tmp_path / f"{tag}.csv"), device.profile)
    return trace.energy_j(t0, t1), t1 - t0


def test_twice_the_work_takes_about_twice_the_energy(device: AndroidDevice, remote_dir: str, tmp_path: Path) -> None:
    if device.profile.python_cmd is None:
        pytest.skip("device has no python for the CPU-bound workload")
    e1, d1 = _energy_of_work(device, remote_dir, tmp_path, UNIT, "x1")
    e2, d2 = _energy_of_work(device, remote_dir, tmp_path, 2 * UNIT, "x2")
    assert e1 > 0 and e2 > 0
    assert e2 / e1 == pytest.approx(2.0, rel=0.15), f"E1={e1:.2f} J in {d1:.1f} s, E2={e2:.2f} J in {d2:.1f} s"
