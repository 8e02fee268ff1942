"""Power model of a vphone: idle power plus active power per busy core, from the CPU time its own
processes really use, integrated into a battery whose counters a fuel gauge publishes on a period,
and (on presets with ODPM rails) into per-rail energy accumulators that the PowerStats HAL dump shows.

Which processes are "its own": every process in the phone's pid namespace (sandbox.py), whatever it
does to its environment or session; an arm64 binary's qemu counts as that process.
All figures are simulated (presets.py names their sources).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import struct
import time
from dataclasses import dataclass, field
from typing import Callable

from android_harness.device.fileio import write_text_atomic as write_atomic
from android_harness.vphone.home import VphoneHome
from android_harness.vphone.presets import PhonePreset
from android_harness.vphone.svc_channel import publish, read_drop

TICK_S = 0.5
RAILS_STAMP = "# edgecl vphone rails read at t_ms="      # first line of svc/ipowerstats.txt
CTL_LIMIT = 4096                                          # bytes of battery_ctl read; a bigger one is ignored
_CLK_TCK = os.sysconf("SC_CLK_TCK")
def write_attribute(path, value: str) -> None:
    """Update a simulated sysfs attribute IN PLACE, as the kernel's attributes behave: same inode, so
    a reader holding it open (``pread``, the device sampler) sees the new value. The file never
    shrinks (no truncate window): a shorter value is padded with spaces before its newline."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o444)
    try:
        size = os.fstat(fd).st_size
        raw = value.encode()
        os.pwrite(fd, raw.ljust(max(size - 1, len(raw))) + b"\n", 0)
    finally:
        os.close(fd)


CTL_KEYS = ("unplugged", "ac", "usb", "wireless", "status", "level", "temp", "present", "counter", "invalid")


def _mws(uws: float) -> float:
    """What the HAL prints for an energy: ``static_cast<float>(energyUWs) / 1000.0`` (int64 uWs)."""
    return struct.unpack("f", struct.pack("f", float(int(uws))))[0] / 1000.0


def _stat(pid: str) -> tuple[int, int, int] | None:
    """(ppid, starttime, utime+stime ticks) from /proc/<pid>/stat, or None if it vanished."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    rest = raw[raw.rfind(b")") + 2:].split()
    return int(rest[1]), int(rest[19]), int(rest[11]) + int(rest[12])


OVERFLOW_UID = 65534      # what a namespace shows for a uid it does not map (the kernel's overflowuid)


def _phone_uid(pid: int) -> int:
    """The uid of ``pid`` as the phone sees it: its real uid mapped back through its user namespace's
    uid_map (``OVERFLOW_UID`` if unmapped, or if the process vanished meanwhile)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            host = next(int(ln.split()[1]) for ln in f if ln.startswith("Uid:"))
        with open(f"/proc/{pid}/uid_map") as f:
            maps = [tuple(map(int, ln.split())) for ln in f if ln.strip()]
    except (OSError, StopIteration, ValueError):
        return OVERFLOW_UID
    return next((inside + host - outside for inside, outside, count in maps if outside <= host < outside + count),
                OVERFLOW_UID)


class CpuMeter:
    """CPU seconds used by the phone's processes (``is_ours(pid)``) since the previous ``sample()``;
    ``by_uid`` splits the last sample by the phone uid that ran it (the HAL's per-app attribution)."""

    def __init__(self, is_ours: Callable[[int], bool]) -> None:
        self._is_ours = is_ours
        self._ours: dict[tuple[int, int], int | None] = {}   # (pid, starttime) -> phone uid if ours, else None
        self._last: dict[tuple[int, int], int] = {}      # (pid, starttime) -> cpu ticks
        self.by_uid: dict[int, float] = {}

    def sample(self) -> float:
        ticks, now, alive, by_uid = 0, {}, set(), {}
        for name in os.listdir("/proc"):
            if not name.isdigit() or (st := _stat(name)) is None:
                continue
            key = (int(name), st[1])
            alive.add(key)
            if key not in self._ours:
                self._ours[key] = _phone_uid(key[0]) if self._is_ours(key[0]) else None
            uid = self._ours[key]
            if uid is not None:
                used = st[2] - self._last.get(key, 0)
                ticks += used
                by_uid[uid] = by_uid.get(uid, 0) + used
                now[key] = st[2]
        self._last = now
        self._ours = {k: v for k, v in self._ours.items() if k in alive}
        self.by_uid = {uid: t / _CLK_TCK for uid, t in by_uid.items() if t > 0}
        return max(ticks, 0) / _CLK_TCK


@dataclass
class BatteryModel:
    """Battery state advanced by ``step``; ``publish`` writes what a fuel gauge would report."""

    preset: PhonePreset
    home: VphoneHome
    seed: int = 0
    soc_start: float = 0.8
    charge_uah: float = field(init=False)
    temp_c: float = 30.0
    _acc_charge_as: float = 0.0     # net ampere-seconds into the battery since the last publish
    _acc_s: float = 0.0
    _last_power_w: float = 0.0
    _last_busy: float = 0.0
    rail_uws: list[float] = field(init=False)       # ODPM accumulators since boot, microwatt-seconds
    uid_uws: list[dict[int, float]] = field(init=False)   # per rail: its CPU-driven energy by phone uid
    boot_monotonic: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.charge_uah = self.preset.battery_mah * 1000 * self.soc_start
        self._rng = random.Random(self.seed)
        self.rail_uws = [0.0] * len(self.preset.odpm_rails)
        self.uid_uws = [{} for _ in self.preset.odpm_rails]

    @property
    def soc(self) -> float:
        return self.charge_uah / (self.preset.battery_mah * 1000)

    def ocv_v(self) -> float:
        return 3.45 + 0.75 * self.soc

    def charging(self, ctl: dict) -> bool:
        unplugged = bool(ctl.get("unplugged")) and self.preset.unplug_stops_charging
        return not unplugged and self.soc < 0.999

    def step(self, dt: float, cpu_s: float, ctl: dict, cpu_by_uid: dict[int, float] | None = None) -> None:
        """Advance ``dt`` seconds in which the phone used ``cpu_s`` CPU seconds (``cpu_by_uid``: split by
        phone uid; each rail's CPU-driven energy is attributed to the uids in that proportion)."""
        p = self.preset
        busy = min(cpu_s / dt, p.cores) if dt > 0 else 0.0
        cpu_w = min(busy * p.active_w_per_core, p.max_soc_w)
        power_w = p.idle_w + cpu_w
        for i, rail in enumerate(p.odpm_rails):
            self.rail_uws[i] += (rail.idle_w + rail.cpu_share * cpu_w) * dt * 1e6
            if rail.cpu_share and cpu_s > 0:
                acc = self.uid_uws[i]
                for uid, used in (cpu_by_uid or {}).items():
                    acc[uid] = acc.get(uid, 0.0) + rail.cpu_share * cpu_w * dt * 1e6 * used / cpu_s
        load_a = power_w / self.ocv_v()
        charge_a = (p.charge_ma / 1000) * min(1.0, (1 - self.soc) * 20) if self.charging(ctl) else 0.0
        net_a = charge_a - load_a
        cap = p.battery_mah * 1000
        self.charge_uah = min(max(self.charge_uah + net_a * 1e6 * dt / 3600, 0.0), cap)
        self.temp_c += (28.0 + 1.5 * power_w - self.temp_c) * min(dt / 60.0, 1.0)
        self._acc_charge_as += net_a * dt
        self._acc_s += dt
        self._last_power_w, self._last_busy = power_w, busy

    def publish(self, ctl: dict) -> None:
        p = self.preset
        avg_a = self._acc_charge_as / self._acc_s if self._acc_s else 0.0
        self._acc_charge_as = self._acc_s = 0.0
        avg_a += self._rng.gauss(0.0, p.gauge_noise_ma / 1000)
        signed = avg_a if p.current_positive_when == "charging" else -avg_a
        current = signed * (1e6 if p.current_unit == "uA" else 1e3)
        volts = self.ocv_v() + avg_a * 0.1
        if self.charging(ctl):
            status = "Charging"
        else:
            status = "Full" if self.soc >= 0.999 and not ctl.get("unplugged") else "Discharging"
        d = self.home.battery_dir
        write_attribute(d / "current_now", f"{int(round(current))}")
        write_attribute(d / "voltage_now", f"{int(volts * 1e6)}")
        write_attribute(d / "charge_counter", f"{int(self.charge_uah)}")
        write_attribute(d / "capacity", f"{int(round(self.soc * 100))}")
        write_attribute(d / "status", f"{status}")
        write_attribute(d / "temp", f"{int(self.temp_c * 10)}")
        write_attribute(self.home.thermal_temp, f"{int(self.temp_c * 1000)}")
        write_atomic(self.home.run / "power_model.json", json.dumps({
            "simulated": True, "time": time.time(), "power_w": round(self._last_power_w, 4),
            "busy_cores": round(self._last_busy, 3), "charging": self.charging(ctl)}))


    def power_stats_dump(self) -> str:
        """``dumpsys android.hardware.power.stats.IPowerStats/default`` as the Pixel HAL prints it
        (hardware/google/pixel ``powerstats/PowerStatsAidl.cpp``, tests/data/power/ipowerstats_pixel6_hal2.txt):
        its printf formats, energies as ``(float)uWs / 1000`` mWs. Each energy consumer (a rail with a
        consumer name) is followed by its per-app rows, ``  %10d - %14.2f mWs``: the rail's CPU-driven
        energy by phone uid, from the CPU time each uid's processes used (a Pixel attributes its GPU
        and TPU consumers this way, from each uid's time in their frequency states)."""
        rails = list(zip(self.preset.odpm_rails, self.rail_uws, self.uid_uws))
        lines = ["", "============= PowerStats HAL 2.0 state residencies ==============",
                 "  %16s   %18s   %16s   %15s   %17s" % ("Entity", "State", "Total time", "Total entries",
                                                        "Last entry tstamp"),
                 "========== End of PowerStats HAL 2.0 state residencies ==========", "",
                 "============= PowerStats HAL 2.0 energy consumers =============="]
        for r, uws, by_uid in rails:
            if r.consumer:
                lines.append("%-12s : %14.2f mWs" % (r.consumer, _mws(uws)))
                lines += ["  %10d - %14.2f mWs" % (uid, _mws(e)) for uid, e in sorted(by_uid.items())]
        lines += ["========== End of PowerStats HAL 2.0 energy consumers ==========", "",
                  "============= PowerStats HAL 2.0 energy meter ==============",
                  "  %32s   %18s" % ("Channel", "Cumulative Energy")]
        lines += ["  %32s   %14.2f mWs" % (f"[{r.rail}]:{r.subsystem}", _mws(uws)) for r, uws, _ in rails]
        lines += ["========== End of PowerStats HAL 2.0 energy meter ==========", ""]
        return "\n".join(lines)

    def publish_rails(self) -> None:
        """The ODPM accumulators are fresh at every tick (the fuel gauge only every period). The
        first line (not printed by ``dumpsys``) says when they were read, in ms since boot, for
        the ``delta`` form (device_tools.py)."""
        if self.preset.odpm_rails:
            t_ms = int((time.monotonic() - self.boot_monotonic) * 1000)
            publish(self.home.svc, "ipowerstats.txt", f"{RAILS_STAMP}{t_ms}\n" + self.power_stats_dump())


def read_ctl(home: VphoneHome) -> dict:
    """What ``dumpsys battery unplug|set`` wrote (``key=value`` lines, device_tools.py) in the shell's
    drop folder; anything but a small regular file there reads as nothing written (svc_channel.py)."""
    raw = read_drop(home.svc_ctl, "battery_ctl", CTL_LIMIT)
    if raw is None:
        return {"unplugged": False, "set": {}}
    text = raw.decode("utf-8", "replace")
    values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    over = {k: int(v) for k, v in values.items() if k in CTL_KEYS[1:] and v.lstrip("-").isdigit()}
    return {"unplugged": values.get("unplugged") == "1", "set": over}


async def run_power_model(model: BatteryModel, meter: CpuMeter, gauge_period_s: float) -> None:
    """Tick forever: sample CPU (in a thread, /proc scans must not stall adb streams), step, publish."""
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, meter.sample)
    model.publish(read_ctl(model.home))
    model.publish_rails()
    last = last_pub = time.monotonic()
    while True:
        await asyncio.sleep(min(TICK_S, gauge_period_s))
        cpu_s = await loop.run_in_executor(None, meter.sample)
        now = time.monotonic()
        ctl = read_ctl(model.home)
        model.step(now - last, cpu_s, ctl, meter.by_uid)
        last = now
        await loop.run_in_executor(None, model.publish_rails)
        if now - last_pub >= gauge_period_s:
            await loop.run_in_executor(None, model.publish, ctl)
            last_pub = now
