"""``edgecl doctor``'s verdicts from facts alone: a stock phone without Python, a termux-style one,
unauthorised/offline/several devices, charging, unreadable or guessed counters, full storage, heat,
low RAM. (device_tests/test_doctor.py runs the same checks against the virtual phone.)"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from android_harness.adb_server import DeviceEntry
from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.doctor import (FAIL, INFO, OK, STOP_CHARGING, WARN, DoctorFacts, adb_verdict, rail_facts,
                                    session_can_run, verdicts)
from android_harness.profile import DeviceProfile, infer_convention

GB = 2**30

PROFILE = DeviceProfile(
    serial="R5CT1234", model="SM-G991B", sdk=33, abi="arm64-v8a", fingerprint="samsung/o1s/o1s:13/TP1A/G991B:user/release-keys",
    simulated=False, storage_root="/data/local/tmp/edgecl", python_cmd=None,
    power_supply_dir="/sys/class/power_supply/battery", current_now_path="/sys/class/power_supply/battery/current_now",
    voltage_now_path="/sys/class/power_supply/battery/voltage_now",
    charge_counter_path="/sys/class/power_supply/battery/charge_counter", capacity_path=None, status_path=None,
    current_unit="mA", current_positive_when="charging", voltage_unit="uV",
    thermal_path="/sys/class/thermal/thermal_zone0/temp", thermal_unit="mC", meminfo_path="/proc/meminfo",
    ram_total_bytes=8 * GB, convention_source="inferred from current_now=-412 with status=Discharging")

DISCHARGING = """Current Battery Service state:
  AC powered: false
  USB powered: false
  Wireless powered: false
  status: 3
  health: 2
  present: true
  level: 64
  scale: 100
  voltage: 3911
  temperature: 291
  technology: Li-ion
"""


def facts(**over) -> DoctorFacts:
    base = dict(profile=PROFILE, release="13", storage_writable=True, storage_free=20 * GB,
                counters={"current_now": "-412", "voltage_now": "3911000", "charge_counter": "2900000"},
                battery=parse_dumpsys_battery(DISCHARGING), rails=None, thermal_c=29.5, mem_total=8 * GB,
                mem_available=3 * GB)
    return DoctorFacts(**{**base, **over})


def by_name(checks):
    return {c.name: c for c in checks}


def test_stock_phone_without_python_runs_the_native_runner():
    checks = by_name(verdicts(facts()))
    expected = {"device": INFO, "ABI": OK, "Android": OK, "storage": OK, "python": WARN, "native runner": OK,
                "runner": OK, "power counters": OK, "ODPM rails": INFO, "charging": OK, "thermal": OK, "RAM": OK}
    assert {n: c.verdict for n, c in checks.items()} == expected
    assert "stock Android has none" in checks["python"].found and "Termux" in checks["python"].fix
    assert checks["native runner"].found.startswith("buildable here for arm64-v8a")
    assert not checks["runner"].blocks_session and session_can_run(list(checks.values()))
    assert "current in mA, positive when charging" in checks["power counters"].found
    assert checks["device"].found.startswith("SM-G991B (real phone), build samsung/")


def test_termux_style_phone_with_a_runtime_can_run():
    f = facts(profile=dataclasses.replace(PROFILE, python_cmd="/data/data/com.termux/files/usr/bin/python3"),
              python_version="3.11.9", python_modules=["numpy", "onnxruntime"], runner_deployed=True)
    checks = by_name(verdicts(f))
    assert checks["python"].verdict == OK and "runtimes: onnxruntime" in checks["python"].found
    assert checks["runner"].verdict == OK and "is deployed" in checks["runner"].found
    assert session_can_run(list(checks.values()))
    no_runtime = by_name(verdicts(dataclasses.replace(f, python_modules=["numpy"])))
    assert no_runtime["python"].verdict == WARN and "executorch or onnxruntime" in no_runtime["python"].fix
    assert no_runtime["runner"].verdict == OK and no_runtime["runner"].found == "the native runner"   # ExecuTorch still runs
    old = by_name(verdicts(dataclasses.replace(f, python_version="3.8.10")))
    assert old["python"].verdict == WARN and "Python >= 3.10" in old["python"].fix


@pytest.mark.parametrize("entries, serial, verdict, words", [
    ([DeviceEntry("R5CT1234", "unauthorized")], None, FAIL, "accept the 'Allow USB debugging?' prompt"),
    ([DeviceEntry("R5CT1234", "offline")], None, FAIL, "adb reconnect offline"),
    ([], None, FAIL, "edgecl vphone start"),
    ([DeviceEntry("A", "device"), DeviceEntry("B", "device")], None, FAIL, "pick one with --serial"),
    ([DeviceEntry("A", "device")], "B", FAIL, "B is not attached; devices: A (device)"),
    ([DeviceEntry("A", "device", model="Pixel_8"), DeviceEntry("B", "offline")], "A", OK, "A: authorised, state device (Pixel_8)"),
])
def test_adb_states(entries, serial, verdict, words):
    check, ready = adb_verdict(entries, serial)
    assert check.verdict == verdict and words in check.found + check.fix
    assert (ready is not None) == (verdict == OK) and check.blocks_session == (verdict == FAIL)


def test_charging_is_a_warning_with_how_to_stop_it():
    plugged = parse_dumpsys_battery(DISCHARGING.replace("USB powered: false", "USB powered: true").replace("status: 3", "status: 2"))
    c = by_name(verdicts(facts(battery=plugged)))["charging"]
    assert c.verdict == WARN and c.found == "64% Charging, on USB power" and c.fix == STOP_CHARGING
    assert "adb tcpip 5555" in c.fix and "only hides the charger" in c.fix


@pytest.mark.parametrize("over, name, verdict, words", [
    ({"storage_writable": False, "storage_error": "Permission denied"}, "storage", FAIL, "not writable: Permission denied"),
    ({"storage_free": 100 * 2**20}, "storage", WARN, "100 MB free"),
    ({"counters": {"current_now": "", "voltage_now": "", "charge_counter": ""}}, "power counters", WARN, "not readable"),
    ({"profile": dataclasses.replace(PROFILE, current_now_path=None)}, "power counters", WARN, "no power_supply"),
    ({"profile": dataclasses.replace(PROFILE, convention_source="default sign (status=Full, current_now=0)")},
     "power counters", WARN, "the sign is a guess"),
    ({"rails": ["S2M_VDD_CPUCL2", "S3M_VDD_CPUCL1", "VSYS_PWR_DISPLAY"]}, "ODPM rails", OK, "3 rails: S2M_VDD_CPUCL2"),
    ({"rails_error": "IPowerStats dump: the energy meter table has no end banner (output cut short?)"}, "ODPM rails",
     WARN, "unreadable: IPowerStats dump: the energy meter table has no end banner"),
    ({"thermal_c": 47.2}, "thermal", WARN, "let the phone cool"),
    ({"thermal_c": None}, "thermal", INFO, "no readable thermal zone"),
    ({"mem_available": 300 * 2**20}, "RAM", WARN, "0.29 GB available"),
    ({"profile": dataclasses.replace(PROFILE, abi="armeabi-v7a")}, "ABI", WARN, "32-bit"),
    ({"profile": dataclasses.replace(PROFILE, sdk=23), "release": "6.0"}, "Android", WARN, "Android 6.0 (SDK 23)"),
    ({"battery": None}, "charging", WARN, "unreadable"),
])
def test_each_line_says_what_is_wrong(over, name, verdict, words):
    c = by_name(verdicts(facts(**over)))[name]
    assert c.verdict == verdict and words in c.found + " " + c.fix, c
    assert c.blocks_session == (name == "storage" and verdict == FAIL)


def test_rails_line_names_why_a_dump_was_not_read():
    """A real Pixel dump (consumers with per-uid rows) gives its rails; a phone without the service is
    INFO; another command's output or a cut dump is a WARN naming it, never "no power monitor"."""
    data = Path(__file__).parent / "data" / "power"
    rails, why = rail_facts((data / "ipowerstats_pixel6_hal2.txt").read_text())
    assert len(rails) == 16 and "S2S_VDD_G3D" in rails and why == ""
    assert rail_facts("Can't find service: android.hardware.power.stats.IPowerStats/default\n") == (None, "")
    rails, why = rail_facts("9,0,i,vers,36,214,TQ3A,TQ3A\n9,0,l,bt,0,8504622,2170411\n")
    assert rails is None and why.startswith("this is `dumpsys batterystats --checkin` output")
    c = by_name(verdicts(facts(rails=rails, rails_error=why)))["ODPM rails"]
    assert c.verdict == WARN and "batterystats --checkin" in c.found and "no on-device power monitor" not in c.found + c.fix


def test_an_idle_phone_in_uA_reads_as_uA_in_the_profile_and_the_doctor():
    """8 mA while idle, printed in uA: the probe's unit rule is the trace's (P = V*I), so the doctor
    shows uA, not the 8 A that a 'below 20000 means mA' rule made of it."""
    unit, sign, how = infer_convention(-8000, "Discharging", 3_870_000)
    p = dataclasses.replace(PROFILE, current_unit=unit, current_positive_when=sign, convention_source=how)
    c = by_name(verdicts(facts(profile=p, counters={"current_now": "-8000", "voltage_now": "3870000",
                                                    "charge_counter": "2900000"})))["power counters"]
    assert c.verdict == OK and "current in uA, positive when charging" in c.found, c
