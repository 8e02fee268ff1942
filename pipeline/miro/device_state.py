"""Read the device's resource state before a task: battery, charger, temperature, RAM, free storage.

One batched shell round trip: ``dumpsys battery`` (level and charger as apps see them), the paths
the device profile probed (battery capacity/status as a fallback, thermal zone, meminfo), ``df`` of
the storage root and Android's thermal status. Anything the
device does not report stays None; the battery-aware policy then treats it as unknown.
"""
from __future__ import annotations

from typing import Any

from android_harness.battery_parse import parse_dumpsys_battery
from android_harness.storage_space import parse_df_available
from pipeline.errors import PowerError
from pipeline.miro.resources import DeviceState

THROTTLING_STATUS = 3  # android.os.PowerManager THERMAL_STATUS_SEVERE: the platform throttles from here


def _int(text: str) -> int | None:
    try:
        return int(text.strip().split()[0])
    except (ValueError, IndexError):
        return None


def parse_meminfo(text: str) -> tuple[int | None, int | None]:
    """(MemAvailable, MemTotal) in bytes from /proc/meminfo text."""
    values: dict[str, int] = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        kb = _int(rest)
        if kb is not None:
            values[key.strip()] = kb * 1024
    return values.get("MemAvailable"), values.get("MemTotal")


def parse_thermal_status(text: str) -> int | None:
    """The ``Thermal Status: N`` line of ``dumpsys thermalservice`` (None when absent)."""
    for line in text.splitlines():
        if line.strip().lower().startswith("thermal status:"):
            return _int(line.split(":", 1)[1])
    return None


def _battery(outs: dict[str, str]) -> tuple[float | None, bool | None]:
    """Level and charger as Android reports them (``dumpsys battery``, which honours ``set level``
    and ``unplug`` like apps see it); the power_supply files when dumpsys is unusable."""
    try:
        b = parse_dumpsys_battery(outs.get("dumpsys", ""))
        return 100.0 * b.level / max(b.scale, 1), b.plugged
    except PowerError:
        level = _int(outs.get("capacity", ""))
        status = outs.get("status", "").strip().lower()
        return (None if level is None else float(level)), (None if not status else status in ("charging", "full"))


def state_from_outputs(outs: dict[str, str], thermal_unit: str = "mC") -> DeviceState:
    """A ``DeviceState`` from the raw texts of the batched reads (keys as in ``read_device_state``)."""
    level, charging = _battery(outs)
    raw_temp = _int(outs.get("thermal", ""))
    temp = None if raw_temp is None else raw_temp / (1000.0 if thermal_unit == "mC" else 10.0)
    avail, total = parse_meminfo(outs.get("meminfo", ""))
    th = parse_thermal_status(outs.get("thermalservice", ""))
    return DeviceState(battery_pct=level, charging=charging,
                       thermal_throttled=th is not None and th >= THROTTLING_STATUS, temp_c=temp,
                       mem_available_bytes=avail, mem_total_bytes=total,
                       storage_free_bytes=parse_df_available(outs.get("df", "")))


def read_device_state(device: Any) -> DeviceState:
    """Ask ``device`` (an ``AndroidDevice``) for its state in one round trip."""
    p = device.profile
    reads: dict[str, str] = {"dumpsys": "dumpsys battery"}
    if p.capacity_path:
        reads["capacity"] = f"cat {p.capacity_path}"
    if p.status_path:
        reads["status"] = f"cat {p.status_path}"
    if p.thermal_path:
        reads["thermal"] = f"cat {p.thermal_path}"
    reads["meminfo"] = f"cat {p.meminfo_path}"
    reads["df"] = f"mkdir -p {p.storage_root} && df -k {p.storage_root}"
    reads["thermalservice"] = "dumpsys thermalservice 2>/dev/null | head -n 20"
    results = device.batch(list(reads.values()), check=False, idempotent=True)
    outs = {k: r.stdout if r.ok else "" for k, r in zip(reads, results)}
    return state_from_outputs(outs, p.thermal_unit)
