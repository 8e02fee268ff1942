"""The device-side sampler (Python and shell-only), run here against a fake power_supply folder."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from android_harness.device import sampler as sampler_mod
from android_harness.power_shell import shell_sampler_script
from pipeline.energy import CounterConvention, normalise, read_power_csv

SAMPLER = Path(sampler_mod.__file__)


def fake_battery(d: Path, current="-512000", status="Discharging") -> Path:
    d.mkdir(parents=True, exist_ok=True)
    for name, value in {"current_now": current, "voltage_now": "3850000", "charge_counter": "3000000",
                        "capacity": "80", "status": status, "temp": "301"}.items():
        (d / name).write_text(value + "\n")
    return d


def replace_atomic(path: Path, text: str) -> None:
    tmp = path.with_name("." + path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def run_sampler(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SAMPLER), *args], capture_output=True, text=True, timeout=20)


def test_python_sampler_writes_contract_rows_at_rate(tmp_path):
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    res = run_sampler("--out", str(out), "--dir", str(d), "--rate", "20", "--seconds", "1")
    assert res.returncode == 0, res.stderr
    raw = read_power_csv(out)
    assert raw.meta["clock"] == "CLOCK_MONOTONIC" and raw.meta["rate_hz"] == "20"
    assert 19 <= len(raw) <= 22
    assert raw.columns["current"][0] == "-512000" and raw.columns["status"][0] == "Discharging"
    tr = normalise(raw, CounterConvention(), simulated=False)
    assert tr.achieved_rate_hz == pytest.approx(20, rel=0.1)
    assert tr.power_w[0] == pytest.approx(0.512 * 3.85)
    assert raw.t[0] < time.clock_gettime(time.CLOCK_MONOTONIC) < raw.t[0] + 60   # same clock as events


def test_sampler_follows_atomically_replaced_files_and_stops_on_sigterm(tmp_path):
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    proc = subprocess.Popen([sys.executable, str(SAMPLER), "--out", str(out), "--dir", str(d), "--rate", "20",
                             "--pid-file", str(tmp_path / "pid")], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 10
        while not (tmp_path / "pid").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert int((tmp_path / "pid").read_text()) == proc.pid
        time.sleep(0.4)
        replace_atomic(d / "current_now", "-900000\n")
        replace_atomic(d / "status", "Charging\n")
        time.sleep(0.4)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    raw = read_power_csv(out)
    assert raw.columns["current"][0] == "-512000" and raw.columns["current"][-1] == "-900000"
    assert raw.columns["status"][-1] == "Charging"
    assert "stopped_rows" in raw.meta and int(raw.meta["stopped_rows"]) == len(raw)


def test_sampler_stops_on_stop_file_and_marks_unreadable_files(tmp_path):
    d = fake_battery(tmp_path / "battery")
    (d / "temp").unlink()
    out, stop = tmp_path / "power.csv", tmp_path / "stop"
    proc = subprocess.Popen([sys.executable, str(SAMPLER), "--out", str(out), "--dir", str(d), "--rate", "10",
                             "--stop-file", str(stop)], stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    stop.touch()
    try:
        assert proc.wait(timeout=5) == 0        # checked at each ~1 s flush
    finally:
        if proc.poll() is None:
            proc.kill()
    raw = read_power_csv(out)
    assert "unreadable" in raw.meta["file_temp"]
    assert set(raw.columns["temp"]) == {""}


def test_sampler_rejects_a_bad_rate(tmp_path):
    res = run_sampler("--out", str(tmp_path / "p.csv"), "--dir", str(tmp_path), "--rate", "0")
    assert res.returncode == 2 and "--rate" in res.stderr


def test_appending_a_second_run_keeps_one_header(tmp_path):
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    for _ in range(2):
        assert run_sampler("--out", str(out), "--dir", str(d), "--rate", "20", "--seconds", "0.2").returncode == 0
    assert out.read_text().count("t,current,voltage") == 1
    assert len(read_power_csv(out)) >= 8


def test_shell_fallback_runs_under_posix_sh(tmp_path):
    d = fake_battery(tmp_path / "battery", status="Not charging")
    files = {c: str(d / f) for c, f in sampler_mod.DEFAULT_FILES.items()}
    files["temp"] = str(d / "missing")
    out = tmp_path / "power.csv"
    script = tmp_path / "s.sh"
    script.write_text(shell_sampler_script(files, str(out), 10, str(tmp_path / "stop"), str(tmp_path / "pid"), 0.6))
    res = subprocess.run(["sh", str(script)], capture_output=True, text=True, timeout=20)
    assert res.returncode == 0, res.stderr
    raw = read_power_csv(out)
    assert raw.meta["clock"] == "CLOCK_BOOTTIME" and raw.meta["sampler"] == "sh"
    assert 4 <= len(raw) <= 9
    assert raw.columns["status"][0] == "Not charging" and raw.columns["temp"][0] == ""
    tr = normalise(raw, CounterConvention(current_unit="uA", current_positive_when="charging", voltage_unit="uV"),
                   simulated=False)
    assert tr.clock == "CLOCK_BOOTTIME" and tr.power_w[0] == pytest.approx(0.512 * 3.85)


def test_shell_fallback_quotes_hostile_paths(tmp_path):
    files = {c: f"/x/$(touch {tmp_path}/pwned)'\"/{c}" for c in sampler_mod.COLUMNS}
    out = tmp_path / "p; rm -rf x.csv"
    script = tmp_path / "s.sh"
    script.write_text(shell_sampler_script(files, str(out), 10, str(tmp_path / "stop"), str(tmp_path / "pid"), 0.2))
    assert subprocess.run(["sh", str(script)], capture_output=True, timeout=20).returncode == 0
    assert not (tmp_path / "pwned").exists() and out.exists()
