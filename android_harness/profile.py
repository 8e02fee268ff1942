"""``DeviceProfile``: every path, unit and size that differs between phones, probed once per device,
cached on disk, overridable by a TOML file.

Every device is probed the same way, a vphone included: storage under ``/data/local/tmp/edgecl``,
the battery found by scanning ``/sys/class/power_supply/*`` for one with ``current_now``, thermal
zones under ``/sys/class/thermal``, ``/proc/meminfo``. A vphone only says that it is one
(``getprop edgecl.vphone`` = 1) so reports label its figures simulated. Current units are
inferred from magnitude and the sign convention from ``status``; both can be
overridden.
"""
from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from android_harness.adb import Adb
from android_harness.cache_dir import edgecl_home
from android_harness.shell_quote import quote
from android_harness.device.errors import ConfigError
from android_harness.errors import DeviceError

REAL_STORAGE_ROOT = "/data/local/tmp/edgecl"
MA_BELOW = 20_000            # |current_now| below this is read as mA (phones draw > 20 mA)
PROFILE_VERSION = 2


@dataclass(frozen=True)
class DeviceProfile:
    serial: str
    model: str
    sdk: int
    abi: str
    fingerprint: str
    simulated: bool                  # a vphone (getprop edgecl.vphone = 1): figures are simulated
    storage_root: str                # edgecl's folder on the device
    python_cmd: str | None           # interpreter for the device runner, None if the phone has none
    power_supply_dir: str | None     # the battery's power_supply folder
    current_now_path: str | None
    voltage_now_path: str | None
    charge_counter_path: str | None
    capacity_path: str | None
    status_path: str | None
    current_unit: str                # "uA" or "mA"
    current_positive_when: str       # "charging" or "discharging"
    voltage_unit: str                # "uV" (kernel) or "mV"
    thermal_path: str | None
    thermal_unit: str                # "mC" (milli-degree C) or "dC" (0.1 degree C)
    meminfo_path: str
    ram_total_bytes: int
    convention_source: str           # how units/sign were decided (inferred / default / override)

    def current_ua(self, raw: float) -> float:
        """A raw current_now reading -> microamps, positive INTO the battery."""
        ua = raw * (1000.0 if self.current_unit == "mA" else 1.0)
        return ua if self.current_positive_when == "charging" else -ua

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "DeviceProfile":
        return cls(**{f.name: d[f.name] for f in dataclasses.fields(cls)})


_ENUMS = {"current_unit": ("uA", "mA"), "current_positive_when": ("charging", "discharging"),
          "voltage_unit": ("uV", "mV"), "thermal_unit": ("mC", "dC")}
_FIELD_TYPES = {f.name: f.type for f in dataclasses.fields(DeviceProfile)}


def apply_override(profile: DeviceProfile, toml_path: Path) -> DeviceProfile:
    """Fields from a TOML file (top-level keys named like DeviceProfile fields) replace probed ones;
    every bad key or value is reported at once."""
    try:
        data = tomllib.loads(toml_path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"cannot read device profile override: {e}", str(toml_path)) from e
    problems = []
    for key, value in data.items():
        if key not in _FIELD_TYPES or key in ("serial", "simulated", "convention_source"):
            problems.append(f"{key}: not an overridable DeviceProfile field")
        elif key in _ENUMS and value not in _ENUMS[key]:
            problems.append(f"{key}: expected one of {_ENUMS[key]}, got {value!r}")
        elif "int" in _FIELD_TYPES[key] and not isinstance(value, int):
            problems.append(f"{key}: expected an integer, got {value!r}")
        elif "str" in _FIELD_TYPES[key] and "int" not in _FIELD_TYPES[key] and not isinstance(value, str):
            problems.append(f"{key}: expected a string, got {value!r}")
    if problems:
        raise ConfigError(problems, str(toml_path))
    source = profile.convention_source
    if {"current_unit", "current_positive_when"} & data.keys():
        source = f"override {toml_path}"
    return dataclasses.replace(profile, **data, convention_source=source)


def parse_getprop(text: str) -> dict[str, str]:
    return dict(re.findall(r"^\[([^\]]+)\]: \[(.*)\]$", text, flags=re.M))


def parse_meminfo_total(text: str) -> int:
    m = re.search(r"^MemTotal:\s+(\d+)\s*kB", text, flags=re.M)
    return int(m.group(1)) * 1024 if m else 0


def infer_convention(raw: int | None, status: str) -> tuple[str, str, str]:
    """(unit, positive_when, how) from one current_now reading and the battery status."""
    if raw is None:
        return "uA", "charging", "default (current_now unreadable)"
    unit = "mA" if 0 < abs(raw) < MA_BELOW else "uA"
    if raw != 0 and status in ("Charging", "Discharging"):
        positive_when = "charging" if (raw > 0) == (status == "Charging") else "discharging"
        return unit, positive_when, f"inferred from current_now={raw} with status={status}"
    return unit, "charging", f"default sign (status={status or '?'}, current_now={raw}); units from magnitude"


def probe(adb: Adb) -> DeviceProfile:
    """Two shell round trips: all properties, then one batch for power, memory, thermal, python."""
    props = parse_getprop(adb.shell("getprop", idempotent=True, timeout=20).stdout)
    simulated = props.get("edgecl.vphone") == "1"
    storage = REAL_STORAGE_ROOT
    ps_base, th_base, meminfo = "/sys/class/power_supply", "/sys/class/thermal", "/proc/meminfo"
    scan_ps = (f"for d in {quote(ps_base)}/*; do [ -r \"$d/current_now\" ] && printf '%s|%s|%s|%s\\n' "
               "\"$d\" \"$(cat \"$d/type\" 2>/dev/null)\" \"$(cat \"$d/current_now\" 2>/dev/null)\" "
               "\"$(cat \"$d/status\" 2>/dev/null)\"; done; true")
    scan_th = (f"for z in {quote(th_base)}/thermal_zone*; do [ -r \"$z/temp\" ] && "
               "printf '%s|%s\\n' \"$z/temp\" \"$(cat \"$z/type\" 2>/dev/null)\"; done; true")
    ps_out, mem_out, th_out, py_out, _mk = adb.batch(
        [scan_ps, ["cat", meminfo], scan_th, "command -v python3 || command -v python || true",
         ["mkdir", "-p", storage]], idempotent=True, timeout=30, check=False)
    if _mk.exit_code != 0:
        raise DeviceError(adb.serial, f"cannot create storage root {storage}: {_mk.stderr.strip()}")
    supply, raw, status = _pick_battery(ps_out.stdout)
    unit, positive_when, how = infer_convention(raw, status)
    thermal = _pick_thermal(th_out.stdout)
    return DeviceProfile(
        serial=adb.serial, model=props.get("ro.product.model", ""),
        sdk=int(props.get("ro.build.version.sdk", "0") or 0), abi=props.get("ro.product.cpu.abi", ""),
        fingerprint=props.get("ro.build.fingerprint", ""), simulated=simulated,
        storage_root=storage, python_cmd=py_out.stdout.strip().splitlines()[0] if py_out.stdout.strip() else None,
        power_supply_dir=supply,
        current_now_path=f"{supply}/current_now" if supply else None,
        voltage_now_path=f"{supply}/voltage_now" if supply else None,
        charge_counter_path=f"{supply}/charge_counter" if supply else None,
        capacity_path=f"{supply}/capacity" if supply else None,
        status_path=f"{supply}/status" if supply else None,
        current_unit=unit, current_positive_when=positive_when, voltage_unit="uV",
        thermal_path=thermal, thermal_unit="mC", meminfo_path=meminfo,
        ram_total_bytes=parse_meminfo_total(mem_out.stdout), convention_source=how)


def _pick_battery(scan: str) -> tuple[str | None, int | None, str]:
    rows = [line.split("|") for line in scan.splitlines() if line.count("|") == 3]
    rank = sorted(rows, key=lambda r: (r[1].strip() != "Battery", "battery" not in r[0].rsplit("/", 1)[-1]))
    if not rank:
        return None, None, ""
    d, _type, cur, status = rank[0]
    try:
        raw = int(cur.strip())
    except ValueError:
        raw = None
    return d, raw, status.strip()


def _pick_thermal(scan: str) -> str | None:
    rows = [line.split("|") for line in scan.splitlines() if "|" in line]
    preferred = [r for r in rows if any(k in r[1].lower() for k in ("battery", "cpu", "soc"))]
    return (preferred or rows or [[None]])[0][0]


def _cache_path(serial: str) -> Path:
    return edgecl_home() / "profiles" / (re.sub(r"[^A-Za-z0-9_.-]", "_", serial) + ".json")


def load_profile(adb: Adb, override: Path | None = None, refresh: bool = False) -> DeviceProfile:
    """Cached profile if the device's fingerprint and serial number still match, else a fresh probe.
    ``override`` (TOML) is applied on top either way."""
    path = _cache_path(adb.serial)
    key_res = adb.batch([["getprop", "ro.build.fingerprint"], ["getprop", "ro.serialno"]],
                        idempotent=True, timeout=20, check=False)
    key = [r.stdout.strip() for r in key_res]
    profile = None
    if not refresh and path.exists():
        try:
            cached = json.loads(path.read_text())
            if cached.get("version") == PROFILE_VERSION and cached.get("key") == key:
                profile = DeviceProfile.from_json(cached["profile"])
        except (OSError, ValueError, KeyError, TypeError):
            profile = None
    if profile is None:
        profile = probe(adb)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"version": PROFILE_VERSION, "key": key, "profile": profile.to_json()}, indent=1))
        tmp.replace(path)
    return apply_override(profile, override) if override else profile
