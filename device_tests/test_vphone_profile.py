"""DeviceProfile probe (works the same on a phone) and the vphone's battery model under load."""
from __future__ import annotations

import re
import statistics
import time
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

import android_harness.profile as profile_mod
from android_harness.android_device import AndroidDevice
from android_harness.profile import load_profile
from android_harness.rail_parse import parse_power_stats
from android_harness.vphone.home import VphoneHome
from pipeline.errors import ConfigError


def test_profile_probe(device: AndroidDevice, vphone_home: VphoneHome | None) -> None:
    """A vphone is found exactly as a phone is: Android paths, no vphone-only root."""
    p = device.refresh_profile()
    assert p.sdk > 0 and p.abi and p.model and p.serial == device.serial
    assert p.ram_total_bytes > 512 * 2 ** 20
    assert p.storage_root == "/data/local/tmp/edgecl" and device.stat(p.storage_root).is_dir
    assert p.current_unit in ("uA", "mA") and p.current_positive_when in ("charging", "discharging")
    if p.current_now_path:
        assert int(device.shell(["cat", p.current_now_path]).stdout.strip()) is not None
    if vphone_home is not None:
        assert p.simulated and p.abi == "arm64-v8a" and p.python_cmd is None        # a stock phone
        assert (p.power_supply_dir, p.meminfo_path) == ("/sys/class/power_supply/battery", "/proc/meminfo")
        assert p.ram_total_bytes == 8 * 2 ** 30                                      # the phone's, not the host's
        assert (p.current_unit, p.current_positive_when) == ("uA", "charging")       # the pixel7 preset
        assert p.thermal_path == "/sys/class/thermal/thermal_zone0/temp" and p.charge_counter_path
        assert vphone_home.host_path(p.storage_root).is_dir()


def test_python_preset_has_a_python(python_device: AndroidDevice) -> None:
    p = python_device.refresh_profile()
    if p.simulated:
        assert p.python_cmd == "/data/data/com.termux/files/usr/bin/python3"
    if p.python_cmd:
        assert python_device.shell([p.python_cmd, "-c", "print(6*7)"]).stdout == "42\n"


def test_profile_is_cached_and_overridable(device: AndroidDevice, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    load_profile(device.adb)

    def no_probe(adb):
        raise AssertionError("probed although cached")

    monkeypatch.setattr(profile_mod, "probe", no_probe)
    cached = load_profile(device.adb)
    assert cached == device.profile
    toml = tmp_path / "p.toml"
    toml.write_text('current_unit = "mA"\ncurrent_positive_when = "discharging"\nstorage_root = "/sdcard/x"\n')
    over = load_profile(device.adb, override=toml)
    assert (over.current_unit, over.current_positive_when, over.storage_root) == ("mA", "discharging", "/sdcard/x")
    assert over.current_ua(-5) == 5000.0 and "override" in over.convention_source
    toml.write_text('current_unit = "A"\nnot_a_field = 1\nsdk = "x"\n')
    with pytest.raises(ConfigError) as info:
        load_profile(device.adb, override=toml)
    assert len(info.value.problems) == 3


def _mean_current_ua(device: AndroidDevice, seconds: float) -> float:
    """Mean current into the battery (uA) from current_now samples over ``seconds``."""
    p = device.profile
    samples, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        samples.append(p.current_ua(int(device.shell(["cat", p.current_now_path]).stdout)))
        time.sleep(0.2)
    return statistics.mean(samples)


def test_battery_counters_rise_under_load(device: AndroidDevice, vphone_home: VphoneHome | None) -> None:
    p = device.profile
    if p.current_now_path is None:
        pytest.skip("no readable current_now on this device")
    device.shell("dumpsys battery unplug")
    try:
        time.sleep(1.2)
        counter0 = int(device.shell(["cat", p.charge_counter_path]).stdout)
        idle = _mean_current_ua(device, 2.5)
        # setsid, and the shell waits a moment: the load must be in its own session before this shell ends
        # (adbd may kill the shell's process group then)
        device.shell("for i in 1 2; do setsid nohup timeout 6 sh -c 'while :; do :; done' >/dev/null 2>&1 & done; sleep 0.5")
        time.sleep(1.0)
        busy = _mean_current_ua(device, 3.0)
        counter1 = int(device.shell(["cat", p.charge_counter_path]).stdout)
    finally:
        device.shell("dumpsys battery reset")
    drain_idle, drain_busy = -idle, -busy
    assert drain_busy > drain_idle + 50_000, (idle, busy)     # >= 50 mA more out of the battery
    if vphone_home is not None:
        assert drain_idle > 0 and counter1 < counter0       # vphone preset: unplug stops charging
        assert "UPDATES STOPPED" not in device.shell("dumpsys battery").stdout


def test_the_machine_is_the_phones_abi(device: AndroidDevice) -> None:
    """``uname -m``, ``arch`` and the kernel's arch sysctl name the phone's ABI, not the host's."""
    abi = device.shell("getprop ro.product.cpu.abi").stdout.strip()
    machine = {"arm64-v8a": "aarch64", "x86_64": "x86_64"}.get(abi)
    if machine is None:
        pytest.skip(f"ABI {abi}: its uname -m varies (armv7l/armv8l)")
    out = device.shell("uname -m; arch; cat /proc/sys/kernel/arch; uname -a").stdout.splitlines()
    assert out[:3] == [machine] * 3, out
    assert out[3].split()[-2] == machine and (machine == "x86_64" or "x86_64" not in out[3]), out[3]


POWER_STATS = "android.hardware.power.stats.IPowerStats/default"
_DELTA_ROW = re.compile(r"^\s*\[(?P<rail>[^\]]+)\]:(?P<sub>\S*)\s+(?P<e>[0-9.]+) mWs \(\s*(?P<d>-?[0-9.]+)\)$")
_CPU_RAILS = re.compile(r"CPUCL|CPU_|_CPU")


def _delta_dump(device: AndroidDevice) -> tuple[int, dict[str, tuple[Decimal, Decimal]]]:
    """(elapsed ms, rail -> (cumulative mWs, delta mWs)) of one ``dumpsys IPowerStats delta``."""
    text = device.shell(["dumpsys", POWER_STATS, "delta"]).stdout
    meter = text[text.index("PowerStats HAL 2.0 energy meter"):]
    elapsed = int(re.search(r"^Elapsed time: (\d+) ms$", meter, re.M).group(1))
    rows = {m["rail"]: (Decimal(m["e"]), Decimal(m["d"])) for m in map(_DELTA_ROW.match, meter.splitlines()) if m}
    assert rows and parse_power_stats(text).by_rail().keys() == rows.keys()
    return elapsed, rows


def test_odpm_rails_accumulate_while_the_phone_works(device: AndroidDevice) -> None:
    """The PowerStats HAL's ``delta`` form: each rail's energy since the previous delta dump (the
    difference of the cumulative column, to the dump's 0.01 mWs), and the CPU rails' energy grows
    faster while two cores are busy than while the phone idles (the quietest of a few idle windows:
    load an earlier test left behind ends within seconds)."""
    if POWER_STATS not in device.shell("dumpsys -l").stdout:
        pytest.skip("no IPowerStats HAL (no on-device power monitor)")
    sim = device.profile.simulated           # the vphone's delta is the printed columns' difference, exactly;

    def quantum(mws: Decimal) -> Decimal:    # a HAL's is the int64 difference, each printed as float32 / 1000
        return Decimal(0) if sim else Decimal(float(np.spacing(np.float32(float(mws) * 1000))) / 1000) + Decimal("0.01")
    _, last = _delta_dump(device)                                    # starts the first window
    cpu = [r for r in last if _CPU_RAILS.search(r)]
    assert cpu, sorted(last)
    windows = []
    for _ in range(4):
        time.sleep(1.5)
        ms, rows = _delta_dump(device)
        windows.append(sum(rows[r][1] for r in cpu) / ms)          # mWs / ms = W
        last = rows
    device.shell("for i in 1 2; do setsid nohup timeout 4 sh -c 'while :; do :; done' >/dev/null 2>&1 & done; sleep 0.3")
    time.sleep(2.0)
    busy_ms, busy = _delta_dump(device)
    assert last.keys() == busy.keys() and busy_ms > 1000
    for rail, (energy, delta) in busy.items():
        assert abs((energy - last[rail][0]) - delta) <= quantum(energy), (rail, energy, last[rail][0], delta)
        assert delta >= 0
    busy_w = sum(busy[r][1] for r in cpu) / busy_ms
    assert busy_w > min(windows) + Decimal("0.1"), (windows, busy_w)
    if sim:       # the loops ran as the shell (uid 2000): the CPU consumers attribute energy to it
        snap = parse_power_stats(device.shell(["dumpsys", POWER_STATS]).stdout)
        shell = {c: rows[2000] for c, rows in snap.attribution_uws.items() if 2000 in rows}
        assert shell and all(0 < e <= snap.consumers_uws[c] for c, e in shell.items()), snap.attribution_uws
