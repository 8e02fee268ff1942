"""``edgecl trace`` end to end on the device (Python sampler and the sh-only fallback)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from android_harness.adb_server import ServerAddress
from android_harness.android_device import AndroidDevice
from android_harness.battery_parse import parse_dumpsys_battery
from pipeline.cli.app import app
from pipeline.energy import read_power_csv
from pipeline.report import validate_trace_events


@pytest.mark.parametrize("shell_sampler", [False, True], ids=["python", "sh"])
def test_edgecl_trace(request: pytest.FixtureRequest, adb_server: ServerAddress, tmp_path: Path,
                      monkeypatch: pytest.MonkeyPatch, shell_sampler: bool) -> None:
    device: AndroidDevice = request.getfixturevalue("device" if shell_sampler else "python_device")
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    monkeypatch.delenv("ADB_SERVER_SOCKET", raising=False)
    args = ["trace", "--serial", device.serial, "--seconds", "2", "--rate", "10", "--out", str(tmp_path)]
    res = CliRunner().invoke(app, args + (["--shell-sampler"] if shell_sampler else []))
    assert res.exit_code == 0, res.output + repr(res.exception)
    summary = json.loads((tmp_path / "summary.json").read_text())
    raw = read_power_csv(tmp_path / "power.csv")
    assert raw.meta["sampler"] == ("sh" if shell_sampler else "python")
    assert summary["simulated"] == device.profile.simulated
    assert 15 <= summary["samples"] <= 25
    assert 0 < summary["battery_before"]["level"] <= 100
    if device.profile.simulated:                       # the vphone's unplug stops its charging; pixel7: ODPM rails
        rails = summary["rails_w"]
        assert rails is not None and rails["S2M_VDD_CPUCL2"] >= 0 and rails["S1M_VDD_MIF"] > 0, json.dumps(summary)
        assert summary["energy_j"] is not None and summary["energy_j"] > 0, json.dumps(summary)
        assert "(simulated)" in res.output
    assert validate_trace_events(json.loads((tmp_path / "trace.json").read_text())) == []
    assert not parse_dumpsys_battery(device.shell(["dumpsys", "battery"]).stdout).updates_stopped
