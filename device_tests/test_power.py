"""Power service on a device (the vphone unless ANDROID_SERIAL is set): sampler lifecycle, the
unplug/reset guard, charging detection. Energy vs training steps: test_power_training.py."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from android_harness.android_device import AndroidDevice
from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.power import PowerSampler, battery_unplugged
from pipeline.energy import load_trace, read_power_csv
from pipeline.energy.standalone import record_trace
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
        s.stop(drain=False)
    assert not s.is_alive()
    s.stop()                                      # idempotent, never raises
    trace = load_trace(s.pull(tmp_path / "power.csv"), device.profile)
    assert trace.simulated == device.profile.simulated
    assert 10 <= len(trace) <= 20 and trace.achieved_rate_hz == pytest.approx(10, rel=0.15)


@pytest.mark.parametrize("use_shell", [False, True], ids=["python", "sh"])
def test_sampler_drains_past_the_end_and_dies_without_its_host(request: pytest.FixtureRequest, tmp_path: Path,
                                                              use_shell: bool) -> None:
    # the Python sampler on a phone with Python (the Termux vphone), the shell sampler on the stock one
    device: AndroidDevice = request.getfixturevalue("device" if use_shell else "python_device")
    remote_dir: str = request.getfixturevalue("remote_dir" if use_shell else "python_remote_dir")
    if device.profile.python_cmd is None and not use_shell:
        pytest.skip("ANDROID_SERIAL names a phone without Python: the Python sampler cannot run there")
    s = PowerSampler(device, f"{remote_dir}/drain/power.csv", rate_hz=10, use_shell=use_shell)
    s.start()
    time.sleep(1.0)
    s.stop(drain=True)                            # returns once the gauge refreshed twice more
    raw = read_power_csv(s.pull(tmp_path / "drain.csv"))
    assert raw.meta["stopped_why"] == "stop_file"
    cur = raw.columns["current"]
    assert len({c for c in cur if c}) >= 3, "the gauge did not refresh during the drain"
    # the host "dies": nobody renews the lease, nothing asks it to stop; it must stop by itself --
    # but only then: while the host renews, a sampler outlives its lease many times over
    s2 = PowerSampler(device, f"{remote_dir}/orphan/power.csv", rate_hz=10, use_shell=use_shell, lease_s=2.0)
    s2.start()
    time.sleep(5.0)
    assert s2.is_alive()
    s2._halt.set()                                # stop renewing, as a killed host would (test-only access)
    deadline = time.monotonic() + 2.0 + 40.0 + 10.0
    while s2.is_alive() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not s2.is_alive()
    assert read_power_csv(s2.pull(tmp_path / "orphan.csv")).meta["stopped_why"].startswith("lease")


def test_plugged_phone_is_detected_as_charging(device: AndroidDevice, tmp_path: Path) -> None:
    if not device.profile.simulated:
        pytest.skip("a real phone may or may not be on a charger")
    rec = record_trace(device, 1.5, tmp_path, rate_hz=10, unplug=False)
    assert rec.trace.charging_samples > 0
    with pytest.raises(PowerError, match="charging"):
        rec.trace.energy_j()
