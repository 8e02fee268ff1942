"""The battery-aware policy switches mode on battery, heat and memory pressure, and changes the pick."""
from __future__ import annotations

from pipeline.miro.candidates import Candidate
from pipeline.miro.resources import DeviceState, ResourcePolicySpec, decide, shrink
from pipeline.miro.scorers import Measurement, ScoringSpec, best_index

BASE = ScoringSpec("cutline", cutline=0.5)
GiB = 1 << 30


def test_normal_when_full_or_charging_or_unknown():
    assert decide(None, BASE).mode == "normal"
    assert decide(DeviceState(battery_pct=80, charging=False), BASE).mode == "normal"
    d = decide(DeviceState(battery_pct=5, charging=True), BASE)
    assert d.mode == "normal" and d.scoring == BASE and d.keep_share == 1.0


def test_low_battery_weighs_energy_more_and_shrinks():
    d = decide(DeviceState(battery_pct=15, charging=False), BASE, ResourcePolicySpec(battery_low=20))
    assert d.mode == "saver"
    assert d.scoring.cutline == 1.0 and d.keep_share == 0.5
    assert "battery 15%" in d.reasons[0]


def test_critical_battery_picks_lowest_energy():
    d = decide(DeviceState(battery_pct=8, charging=False), BASE)
    assert d.mode == "critical" and d.scoring.scorer == "lowest_energy" and d.keep_share == 0.25


def test_thermal_throttling_is_saver_mode():
    assert decide(DeviceState(battery_pct=90, thermal_throttled=True), BASE).mode == "saver"
    assert decide(DeviceState(battery_pct=90, temp_c=47.0), BASE).mode == "saver"
    assert decide(DeviceState(battery_pct=90, temp_c=30.0), BASE).mode == "normal"


def test_memory_pressure_halves_ram_share_and_space():
    d = decide(DeviceState(battery_pct=90, mem_available_bytes=GiB // 10, mem_total_bytes=GiB), BASE)
    assert d.mode == "normal" and d.memory_pressure and d.ram_share_factor == 0.5 and d.keep_share == 0.5


def test_the_switch_changes_the_choice_on_the_same_measurements():
    rows = [(400, 200, 0.80, 40.0), (200, 200, 0.78, 25.0), (100, 200, 0.70, 15.0), (50, 100, 0.50, 6.0)]
    ms = [Measurement(Candidate(em, sb), a, e, 1.0, 1) for em, sb, a, e in rows]
    normal = decide(DeviceState(battery_pct=90, charging=False), BASE)
    low = decide(DeviceState(battery_pct=12, charging=False), BASE)
    assert ms[best_index(ms, normal.scoring)].candidate == Candidate(200, 200)
    assert ms[best_index(ms, low.scoring)].candidate == Candidate(50, 100)


def test_shrink_keeps_the_cheapest_share_in_order():
    cands = [Candidate(400, 200), Candidate(50, 100), Candidate(200, 200), Candidate(100, 100)]
    assert shrink(cands, 0.5) == [Candidate(50, 100), Candidate(100, 100)]
    assert shrink(cands, 0.1) == [Candidate(50, 100)]
    assert shrink(cands, 1.0) == cands


def test_device_state_from_raw_reads_drives_the_policy():
    from pipeline.miro.device_state import state_from_outputs

    outs = {"capacity": "14\n", "status": "Discharging\n", "thermal": "36500\n",
            "meminfo": "MemTotal:  8000000 kB\nMemFree: 100 kB\nMemAvailable:   400000 kB\n",
            "df": "Filesystem 1K-blocks Used Available Use% Mounted on\n/dev/x 1000 10 990 1% /data\n",
            "thermalservice": "IsStatusOverride: false\nThermal Status: 3\n"}
    s = state_from_outputs(outs, "mC")
    assert (s.battery_pct, s.charging, s.temp_c, s.thermal_throttled) == (14.0, False, 36.5, True)
    assert s.mem_available_bytes == 400000 * 1024 and s.storage_free_bytes == 990 * 1024
    d = decide(s, BASE)
    assert d.mode == "saver" and d.memory_pressure and len(d.reasons) == 3
    assert state_from_outputs({}, "mC") == DeviceState()
