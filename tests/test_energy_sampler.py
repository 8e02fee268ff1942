"""The device-side samplers (Python and shell-only), run here against a fake power_supply folder and
fake ODPM files: rows at rate, both clocks, ODPM snapshots, and every way they bound themselves
(signal, stop file, end file, expired lease, time limit) with the drain past the end."""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from android_harness.device import sampler as sampler_mod
from android_harness.power_shell import shell_sampler_script
from pipeline.energy import CounterConvention, normalise, read_power_csv, read_rails_log

SAMPLER = Path(sampler_mod.__file__)
SHELLS = ["sh"] + (["busybox sh"] if shutil.which("busybox") else [])   # dash, and busybox ash (toybox-like)
IIO = "t={ms}\nCH0(T={ms})[S2M_VDD_CPUCL2], {e0}\nCH1(T={ms})[S2S_VDD_G3D], {e1}\n"


def fake_battery(d: Path, current="-512000", status="Discharging") -> Path:
    d.mkdir(parents=True, exist_ok=True)
    for name, value in {"current_now": current, "voltage_now": "3850000", "charge_counter": "3000000",
                        "capacity": "80", "status": status, "temp": "301"}.items():
        (d / name).write_text(value + "\n")
    return d


def fake_iio(path: Path, e0: int = 1000, e1: int = 2000) -> Path:
    path.write_text(IIO.format(ms=int(time.clock_gettime(time.CLOCK_BOOTTIME) * 1000), e0=e0, e1=e1))
    return path


def replace_atomic(path: Path, text: str) -> None:
    tmp = path.with_name("." + path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def run_sampler(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SAMPLER), *args], capture_output=True, text=True, timeout=timeout)


def wait_for(path: Path, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert path.exists(), f"{path} never appeared"


def rows_written(path: Path) -> list[list[str]]:
    """The data rows the sampler has flushed so far (it writes whole lines about once a second)."""
    lines = path.read_text().splitlines() if path.exists() else []
    return [line.split(",") for line in lines if line and not line.startswith("#")][1:]


def wait_for_row(path: Path, what: str, ok, timeout: float = 60.0) -> None:
    """Until a flushed row satisfies ``ok``: the test acts once the sampler has shown it got there."""
    deadline = time.monotonic() + timeout
    while not any(ok(row) for row in rows_written(path)):
        assert time.monotonic() < deadline, f"no row with {what} in {path} within {timeout:.0f} s"
        time.sleep(0.05)


def test_python_sampler_writes_contract_rows_at_rate_with_both_clocks(tmp_path):
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    res = run_sampler("--out", str(out), "--dir", str(d), "--rate", "20", "--seconds", "1")
    assert res.returncode == 0, res.stderr
    raw = read_power_csv(out)
    assert raw.meta["clock"] == "CLOCK_MONOTONIC" and raw.meta["rate_hz"] == "20"
    assert float(raw.meta["anchor_boot"]) - float(raw.meta["anchor_mono"]) == pytest.approx(
        time.clock_gettime(time.CLOCK_BOOTTIME) - time.clock_gettime(time.CLOCK_MONOTONIC), abs=0.01)
    # every slot of the 1 s at 20 Hz is a row or, on a loaded host, a slot counted as missed (never a burst)
    missed = int(raw.meta["stopped_overruns"])
    assert 19 <= len(raw) + missed <= 22 and raw.meta["stopped_why"] == "time_limit"
    assert raw.columns["current"][0] == "-512000" and raw.columns["status"][0] == "Discharging"
    assert raw.columns["energy_counter"][0] == ""                    # no energy_now on this "phone"
    tr = normalise(raw, CounterConvention(), simulated=False)
    assert tr.achieved_rate_hz == pytest.approx(20 * (len(raw) - 1) / (len(raw) + missed - 1), rel=0.1)
    assert tr.power_w[0] == pytest.approx(0.512 * 3.85)
    assert raw.t[0] < time.clock_gettime(time.CLOCK_MONOTONIC) < raw.t[0] + 60   # same clock as events
    boot_minus_mono = tr.t_boot - tr.t
    assert boot_minus_mono.max() - boot_minus_mono.min() < 0.5    # no suspend (seconds); a loaded host delays reads ms


def test_sampler_follows_atomically_replaced_files_and_stops_on_sigterm(tmp_path):
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    proc = subprocess.Popen([sys.executable, str(SAMPLER), "--out", str(out), "--dir", str(d), "--rate", "20",
                             "--pid-file", str(tmp_path / "pid")], stderr=subprocess.PIPE, text=True)
    try:
        wait_for(tmp_path / "pid")
        assert int((tmp_path / "pid").read_text()) == proc.pid
        wait_for_row(out, "the first values", lambda row: True)
        replace_atomic(d / "current_now", "-900000\n")
        replace_atomic(d / "status", "Charging\n")
        wait_for_row(out, "the replaced files' values", lambda row: row[1] == "-900000" and row[5] == "Charging")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    raw = read_power_csv(out)
    assert raw.columns["current"][0] == "-512000" and raw.columns["current"][-1] == "-900000"
    assert raw.columns["status"][-1] == "Charging"
    assert "stopped_rows" in raw.meta and int(raw.meta["stopped_rows"]) == len(raw)


def _start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, Path, Path]:
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    proc = subprocess.Popen([sys.executable, str(SAMPLER), "--out", str(out), "--dir", str(d), "--rate", "10",
                             "--pid-file", str(tmp_path / "pid"), *extra], stderr=subprocess.PIPE, text=True)
    wait_for(tmp_path / "pid")
    return proc, out, d


def _finish(proc: subprocess.Popen, timeout: float) -> None:
    try:
        assert proc.wait(timeout=timeout) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_stop_file_now_stops_at_once_and_marks_unreadable_files(tmp_path):
    (tmp_path / "battery").mkdir()
    proc, out, d = _start(tmp_path, "--stop-file", str(tmp_path / "stop"))
    (d / "temp").unlink()
    time.sleep(0.5)
    (tmp_path / "stop").write_text("now\n")
    _finish(proc, 60)                                 # checked at each ~1 s flush
    raw = read_power_csv(out)
    assert raw.meta["stopped_why"] == "stopped_at_once"


def test_stop_file_drains_until_the_gauge_refreshed_twice(tmp_path):
    proc, out, d = _start(tmp_path, "--stop-file", str(tmp_path / "stop"), "--drain-max-s", "30")
    (tmp_path / "stop").write_text("drain\n")
    t_stop = time.clock_gettime(time.CLOCK_MONOTONIC)
    # the sampler checks the stop file right after each flush: a flushed row stamped after the stop says it drains
    wait_for_row(out, "a time after the stop file", lambda row: float(row[0]) >= t_stop)
    assert proc.poll() is None, "stopped before the gauge refreshed"
    t_refresh = time.clock_gettime(time.CLOCK_MONOTONIC)
    replace_atomic(d / "current_now", "-700000\n")
    wait_for_row(out, "the first refresh", lambda row: "-700000" in row)
    replace_atomic(d / "current_now", "-650000\n")
    _finish(proc, 60)
    raw = read_power_csv(out)
    assert raw.meta["stopped_why"] == "stop_file"
    assert raw.columns["current"][-1] == "-650000" and raw.t[-1] >= t_refresh


def test_end_file_and_lease_bound_the_sampler(tmp_path):
    proc, out, _ = _start(tmp_path / "a", "--end-file", str(tmp_path / "result.json"), "--drain-max-s", "0.5")
    (tmp_path / "result.json").write_text("{}")
    _finish(proc, 60)
    assert read_power_csv(out).meta["stopped_why"] == "session_ended"
    lease = tmp_path / "lease"
    lease.write_text("1")
    t0 = time.monotonic()
    proc, out, _ = _start(tmp_path / "b", "--lease-file", str(lease), "--lease-s", "1.5", "--drain-max-s", "0.5")
    _finish(proc, 60)                                # nobody renews: the host is "gone"
    assert time.monotonic() - t0 >= 1.5
    assert read_power_csv(out).meta["stopped_why"].startswith("lease")


@pytest.mark.parametrize("how", ["files", "cmd"])
def test_python_sampler_snapshots_odpm_rails(tmp_path, how):
    hal = Path(__file__).parent / "data" / "power" / "ipowerstats_pixel6_hal2.txt"
    source = ["--rails-file", str(fake_iio(tmp_path / "energy_value"))] if how == "files" else ["--rails-cmd", f"cat {hal}"]
    rails = tmp_path / "rails.txt"
    d = fake_battery(tmp_path / "battery")
    res = run_sampler("--out", str(tmp_path / "power.csv"), "--dir", str(d), "--rate", "10", "--seconds", "1.2",
                      "--rails-out", str(rails), "--rails-period", "0.3", *source)
    assert res.returncode == 0, res.stderr
    series = read_rails_log(rails)
    assert series.clock == "CLOCK_MONOTONIC" and len(series) >= 2     # the first and the one past the end, however loaded
    if how == "files":
        assert series.fmt == "iio" and series.rails == ["S2M_VDD_CPUCL2", "S2S_VDD_G3D"]
        assert series.total_j[0] == pytest.approx(3000e-6)
    else:
        assert series.fmt == "hal" and len(series.rails) == 16


def test_appending_a_second_run_keeps_one_header(tmp_path):
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    for _ in range(2):
        assert run_sampler("--out", str(out), "--dir", str(d), "--rate", "20", "--seconds", "0.2").returncode == 0
    assert out.read_text().count("t,current,voltage") == 1
    stopped = [line for line in out.read_text().splitlines() if line.startswith("# stopped")]
    assert len(stopped) == 2 and len(read_power_csv(out)) == sum(int(line.split("rows=")[1].split()[0]) for line in stopped)


def test_sampler_rejects_a_bad_rate(tmp_path):
    res = run_sampler("--out", str(tmp_path / "p.csv"), "--dir", str(tmp_path), "--rate", "0")
    assert res.returncode == 2 and "--rate" in res.stderr


def _files(d: Path) -> dict[str, str]:
    return {c: str(d / f) for c, f in sampler_mod.DEFAULT_FILES.items()}


@pytest.mark.parametrize("shell", SHELLS)
def test_shell_sampler_rows_boottime_and_rails(tmp_path, shell):
    d = fake_battery(tmp_path / "battery", status="Not charging")
    files = _files(d)
    files["temp"] = str(d / "missing")
    iio = fake_iio(tmp_path / "energy_value")
    out, rails = tmp_path / "power.csv", tmp_path / "rails.txt"
    script = tmp_path / "s.sh"
    script.write_text(shell_sampler_script(files, str(out), 10, str(tmp_path / "stop"), str(tmp_path / "pid"), 1.2,
                                           rails_out=str(rails), rail_files=[str(iio)], rail_period_s=0.3))
    before = time.clock_gettime(time.CLOCK_BOOTTIME)
    res = subprocess.run([*shell.split(), str(script)], capture_output=True, text=True, timeout=20)
    assert res.returncode == 0, res.stderr
    raw = read_power_csv(out)
    assert raw.meta["clock"] == "CLOCK_BOOTTIME" and raw.meta["sampler"] == "sh" and raw.meta["stopped_why"] == "time_limit"
    assert 1 <= len(raw) <= 13                                    # never faster than its rate (slower when loaded)
    assert all(b - a >= 0.09 for a, b in zip(raw.t, raw.t[1:]))   # 0.1 s apart at least (/proc/uptime: 10 ms)
    assert abs(raw.t[0] - before) < 1.0                          # /proc/uptime is CLOCK_BOOTTIME
    assert raw.columns["status"][0] == "Not charging" and raw.columns["temp"][0] == ""
    tr = normalise(raw, CounterConvention(current_unit="uA", current_positive_when="charging", voltage_unit="uV"),
                   simulated=False)
    assert tr.clock == "CLOCK_BOOTTIME" and tr.power_w[0] == pytest.approx(0.512 * 3.85)
    series = read_rails_log(rails)
    assert series.clock == "CLOCK_BOOTTIME" and len(series) >= 3 and series.t[-1] >= raw.t[-1] - 0.5


@pytest.mark.parametrize("shell", SHELLS)
def test_shell_sampler_takes_its_last_rail_read_when_it_stops_not_a_rail_period_later(tmp_path, shell):
    """The rail loop waits between reads on a background sleep, so a stop ends that wait: the last read
    follows the main loop's end, not the rest of a (here 60 s) rail period."""
    d = fake_battery(tmp_path / "battery")
    out, rails, stop = tmp_path / "power.csv", tmp_path / "rails.txt", tmp_path / "stop"
    script = tmp_path / "s.sh"
    script.write_text(shell_sampler_script(_files(d), str(out), 10, str(stop), str(tmp_path / "pid"), rails_out=str(rails),
                                           rail_cmd=f"cat {fake_iio(tmp_path / 'ev')}", rail_period_s=60))
    proc = subprocess.Popen([*shell.split(), str(script)], stderr=subprocess.PIPE, text=True)
    try:
        wait_for(rails)                                           # the first read is in
        stop.write_text("now\n")
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    reads = read_rails_log(rails)
    first, last = reads.t[0], reads.t[-1]
    assert len(reads) == 2 and last - first < 60                         # its own final read, before a period passed
    assert last >= read_power_csv(out).t[-1]                                # after the main loop's last row


@pytest.mark.parametrize("shell", SHELLS)
def test_shell_sampler_rail_reads_never_share_a_clock_tick(tmp_path, shell):
    """/proc/uptime steps by 10 ms while a file read takes about a millisecond: back-to-back rail reads
    over 0.6 s outnumber the clock's ticks, so only waiting for the clock to pass the previous read's
    end keeps the snapshot times increasing (a stop landing right after a read is the same case)."""
    d = fake_battery(tmp_path / "battery")
    out, rails = tmp_path / "power.csv", tmp_path / "rails.txt"
    script = tmp_path / "s.sh"
    script.write_text(shell_sampler_script(_files(d), str(out), 10, str(tmp_path / "stop"), str(tmp_path / "pid"), 0.6,
                                           rails_out=str(rails), rail_files=[str(fake_iio(tmp_path / "ev"))],
                                           rail_period_s=0.001))
    res = subprocess.run([*shell.split(), str(script)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    series = read_rails_log(rails)
    assert len(series) >= 10 and all(b > a for a, b in zip(series.t, series.t[1:]))


@pytest.mark.parametrize("shell", SHELLS)
def test_shell_sampler_drains_on_end_file_and_stops_on_lease(tmp_path, shell):
    d = fake_battery(tmp_path / "battery")
    out = tmp_path / "power.csv"
    end, lease = tmp_path / "result.json", tmp_path / "lease"
    lease.write_text("1\n")
    script = tmp_path / "s.sh"
    script.write_text(shell_sampler_script(_files(d), str(out), 10, str(tmp_path / "stop"), str(tmp_path / "pid"),
                                           end_file=str(end), lease_file=str(lease), lease_s=1.5, drain_max_s=20,
                                           rails_out=str(tmp_path / "rails.txt"), rail_cmd=f"cat {fake_iio(tmp_path / 'ev')}"))
    proc = subprocess.Popen([*shell.split(), str(script)], stderr=subprocess.PIPE, text=True)
    try:
        wait_for(tmp_path / "pid")
        end.write_text("{}")                                     # the session ended (checked before the lease): drain
        t_end = time.clock_gettime(time.CLOCK_BOOTTIME)
        # the sampler checks after each flush: a flushed row read after the end file (/proc/uptime: 10 ms) says it drains
        wait_for_row(out, "a time after the end file", lambda row: float(row[0]) >= t_end + 0.01)
        assert proc.poll() is None
        replace_atomic(d / "current_now", "-600000\n")
        wait_for_row(out, "the first refresh", lambda row: "-600000" in row)
        replace_atomic(d / "current_now", "-610000\n")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    raw = read_power_csv(out)
    assert raw.meta["stopped_why"] == "session_ended" and raw.columns["current"][-1] == "-610000"
    assert read_rails_log(tmp_path / "rails.txt").fmt == "iio"       # the rail loop ran and stopped with it
    out.unlink()
    script.write_text(shell_sampler_script(_files(d), str(out), 10, str(tmp_path / "stop"), str(tmp_path / "pid"),
                                           lease_file=str(lease), lease_s=1.5, drain_max_s=0.5))
    t0 = time.monotonic()
    assert subprocess.run([*shell.split(), str(script)], capture_output=True, timeout=20).returncode == 0
    assert time.monotonic() - t0 >= 1.5
    assert read_power_csv(out).meta["stopped_why"] == "lease_expired"


def test_shell_sampler_quotes_hostile_paths(tmp_path):
    files = {c: f"/x/$(touch {tmp_path}/pwned)'\"/{c}" for c in sampler_mod.COLUMNS}
    out = tmp_path / "p; rm -rf x.csv"
    script = tmp_path / "s.sh"
    script.write_text(shell_sampler_script(files, str(out), 10, str(tmp_path / "stop"), str(tmp_path / "pid"), 0.2,
                                           lease_file=f"{tmp_path}/$(touch {tmp_path}/pwned2)"))
    assert subprocess.run(["sh", str(script)], capture_output=True, timeout=20).returncode == 0
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "pwned2").exists() and out.exists()
    with pytest.raises(ValueError, match="whitespace"):
        shell_sampler_script(files, str(out), 10, "s", "p", rails_out="r", rail_files=["/a b/energy_value"])
