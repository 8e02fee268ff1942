"""``edgecl doctor`` against the device: every line's verdict, checked against what the virtual
phone really is (its preset, its sysfs/procfs files on the host) or, on a real phone, against the
phone's own answers; the charging line follows the charger as it is plugged and unplugged; the
exit code says whether a session can run."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from android_harness.adb_server import ServerAddress
from android_harness.android_device import AndroidDevice
from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.doctor import FAIL, INFO, OK, STOP_CHARGING, WARN, collect, diagnose, session_can_run, verdicts
from pipeline.cli.app import app


def _preset(device: AndroidDevice):
    from android_harness.vphone.presets import get_preset

    return get_preset(device.shell(["getprop", "edgecl.vphone.preset"]).stdout.strip())


def _has_python(device: AndroidDevice) -> bool:
    """A vphone preset says whether it keeps a Python (stock presets have none); a real phone's PATH says."""
    if device.profile.simulated:
        return getattr(_preset(device), "has_python", True)
    return device.profile.python_cmd is not None


def _native_built() -> bool:
    try:
        from android_harness import native  # noqa: F401
    except ImportError:
        return False
    return True


def _zone_c(home) -> float:
    return int(home.thermal_temp.read_text()) / 1000.0


def test_every_line_matches_the_phone(device: AndroidDevice, adb_server: ServerAddress, vphone_home) -> None:
    before_c = _zone_c(vphone_home) if device.profile.simulated else 0.0
    serial, checks = diagnose(device.serial, adb_server)
    c = {k.name: k for k in checks}
    assert serial == device.serial
    assert [k.name for k in checks] == ["adb", "device", "ABI", "Android", "storage", "python", "native runner", "runner",
                                        "power counters", "ODPM rails", "charging", "thermal", "RAM"]
    p = device.profile
    assert c["adb"].verdict == OK and c["adb"].found.startswith(f"{device.serial}: authorised")
    assert c["device"].verdict == INFO and (("SIMULATED virtual phone" in c["device"].found) == p.simulated)
    assert c["storage"].verdict == OK and c["storage"].found.startswith(f"{p.storage_root} writable")
    if not _native_built():
        assert c["native runner"].verdict == INFO and c["native runner"].found == "not built in this checkout"
    python = _has_python(device)
    assert c["python"].verdict == (OK if python else WARN)
    assert c["runner"].verdict == (OK if python or _native_built() else FAIL)
    assert session_can_run(checks) == (c["runner"].verdict == OK)
    if not p.simulated:
        return
    preset, home = _preset(device), vphone_home
    assert c["ABI"].verdict == OK and c["ABI"].found == preset.abi
    assert c["Android"].verdict == OK and c["Android"].found.endswith(f"(SDK {preset.sdk})")
    if python:
        assert "executorch" in c["python"].found and "onnxruntime" in c["python"].found   # the host's packages
    assert c["power counters"].verdict == OK
    assert (f"current in {preset.current_unit}, positive when {preset.current_positive_when}"
            in c["power counters"].found)
    rails = sorted(r.rail for r in getattr(preset, "odpm_rails", ()))   # presets that model ODPM list their rails
    if rails:
        assert c["ODPM rails"].verdict == OK and c["ODPM rails"].found.startswith(f"{len(rails)} rails: {rails[0]}")
    else:
        assert c["ODPM rails"].verdict == INFO
    shown = float(c["thermal"].found.split(" °C")[0])            # the power model warms the zone as it runs:
    lo, hi = sorted((before_c, _zone_c(home)))                     # the reading lies between the host's two reads
    assert lo - 0.05 <= shown <= hi + 0.05 and c["thermal"].verdict == (OK if shown < 45.0 else WARN)
    assert c["RAM"].verdict == OK and c["RAM"].found.startswith(f"{preset.ram_bytes / 2**30:.1f} GB total")


def _battery(device: AndroidDevice):
    return parse_dumpsys_battery(device.shell(["dumpsys", "battery"]).stdout)


def test_the_charging_line_follows_the_charger(device: AndroidDevice) -> None:
    if not device.profile.simulated:
        pytest.skip("plugs and unplugs a charger: virtual phone only")
    try:
        device.shell(["cmd", "battery", "set", "ac", "1"])
        c = {k.name: k for k in verdicts(collect(device))}["charging"]
        assert c.verdict == WARN and "on AC" in c.found and c.fix == STOP_CHARGING
        device.shell(["cmd", "battery", "reset"])
        device.shell(["cmd", "battery", "unplug"])
        deadline = time.monotonic() + 10
        while _battery(device).status != 3 and time.monotonic() < deadline:   # the gauge publishes "Discharging"
            time.sleep(0.2)
        c = {k.name: k for k in verdicts(collect(device))}["charging"]
        if getattr(_preset(device), "unplug_stops_charging", True):
            assert c.verdict == OK and "Discharging, no charger" in c.found, c
        else:
            assert c.verdict == WARN
    finally:
        device.shell(["cmd", "battery", "reset"])


def test_cli_screen_and_exit_code(device: AndroidDevice, adb_server: ServerAddress, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    monkeypatch.delenv("ADB_SERVER_SOCKET", raising=False)
    res = CliRunner().invoke(app, ["doctor", "--serial", device.serial, "--json"])
    out = json.loads(res.output)
    assert out["serial"] == device.serial and len(out["checks"]) == 13
    assert res.exit_code == (0 if out["session_can_run"] else 1)
    assert out["session_can_run"] == (_has_python(device) or _native_built())
    screen = CliRunner().invoke(app, ["doctor", "--serial", device.serial], env={"COLUMNS": "200"})
    assert screen.exit_code == res.exit_code
    assert ("a session can run here" in screen.output) == out["session_can_run"]
    for check in out["checks"]:
        assert check["name"] in screen.output
    missing = CliRunner().invoke(app, ["doctor", "--serial", "no-such-phone", "--json"])
    gone = json.loads(missing.output)
    assert missing.exit_code == 1 and gone["checks"][0]["verdict"] == FAIL
    assert "no-such-phone is not attached" in gone["checks"][0]["found"]


@pytest.mark.parametrize("preset_name", ["galaxy_s21", "mi_a1"])
def test_counter_units_and_sign_of_other_phones(adb_server: ServerAddress, edgecl_home: Path, preset_name: str) -> None:
    """Samsung reports mA; the Mi A1 reports uA positive while DIScharging: the power line
    says so, inferred on the phone, and the other lines follow the preset."""
    import os

    from android_harness import vphone
    from android_harness.vphone.manager import remove_home
    from android_harness.vphone.presets import get_preset

    if os.environ.get("ANDROID_SERIAL"):
        pytest.skip("starts virtual phones of other makes")
    preset = get_preset(preset_name)
    info = vphone.start(preset=preset_name, server=adb_server, base=edgecl_home, home=edgecl_home / f"doctor-{preset_name}")
    try:
        _, checks = diagnose(info.serial, adb_server)
        c = {k.name: k for k in checks}
        assert c["power counters"].verdict == OK
        assert f"current in {preset.current_unit}, positive when {preset.current_positive_when}" in c["power counters"].found
        assert c["ABI"].found == preset.abi and c["Android"].found.endswith(f"(SDK {preset.sdk})")
        assert c["RAM"].found.startswith(f"{preset.ram_bytes / 2**30:.1f} GB total")
    finally:
        vphone.stop(info, adb_server, base=edgecl_home)
        assert remove_home(info) and not Path(info.home).exists()
