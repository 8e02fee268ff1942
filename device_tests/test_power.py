"""Power service on a device (the vphone unless ANDROID_SERIAL is set): sampler lifecycle, the
unplug/reset guard, charging detection. Energy vs training steps: test_power_training.py."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from android_harness.android_device import AndroidDevice
from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.power import PowerSampler, battery_unplugged, record_trace
from pipeline.energy import load_trace
from pipeline.errors import PowerError


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
