"""Miro reads the device's resource state in one round trip, and Android's battery overrides move it."""
from __future__ import annotations

from pipeline.miro.device_state import read_device_state
from pipeline.miro.resources import decide
from pipeline.miro.scorers import ScoringSpec


def test_state_is_read_and_low_battery_switches_the_policy(device):
    state = read_device_state(device)
    assert state.battery_pct is not None and 0 <= state.battery_pct <= 100
    assert state.mem_available_bytes and state.mem_total_bytes and state.mem_available_bytes <= state.mem_total_bytes
    assert state.storage_free_bytes and state.storage_free_bytes > 0
    assert state.temp_c is not None and 0 < state.temp_c < 100
    device.shell("dumpsys battery unplug && dumpsys battery set level 12")
    try:
        low = read_device_state(device)
        assert (low.battery_pct, low.charging) == (12.0, False)
        assert decide(low, ScoringSpec()).mode == "saver"
    finally:
        device.shell("dumpsys battery reset")
