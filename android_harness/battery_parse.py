"""Parsers for what Android prints about the battery and power rails (host side, no adb here).

Three sources (android.md B):
- ``dumpsys battery`` -- BatteryService.dumpInternal: ``Current Battery Service state:`` then
  ``  key: value`` lines (voltage in mV, temperature in 0.1 degC, charge counter in uAh); OEMs append
  their own lines, kept verbatim in ``extra``.
- ``dumpsys android.hardware.power.stats.IPowerStats/default [delta]`` -- the PowerStats HAL 2.0
  dump: an "energy meter" table of ``[RAIL]:subsystem   <cumulative> mWs [(<delta>)]``.
- perfetto's ``android.power`` data source, as text-format trace packets (``battery {..}`` and
  ``power_rails {..}``) or as trace_processor CSV of counters (``ts,name,value``).
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from pipeline.errors import PowerError

BATTERY_HEADER = "Current Battery Service state:"
UPDATES_STOPPED = "(UPDATES STOPPED"
STATUS_NAMES = {1: "Unknown", 2: "Charging", 3: "Discharging", 4: "Not charging", 5: "Full"}


@dataclass(frozen=True)
class BatteryState:
    """One ``dumpsys battery`` answer, in the units BatteryService prints."""

    ac_powered: bool
    usb_powered: bool
    wireless_powered: bool
    dock_powered: bool | None
    status: int
    level: int
    scale: int
    voltage_mv: int
    temperature_dc: int              # tenths of a degree Celsius
    charge_counter_uah: int | None
    max_charging_current_ua: int | None
    max_charging_voltage_uv: int | None
    health: int | None
    present: bool
    technology: str
    updates_stopped: bool            # after `dumpsys battery unplug`/`set`: the state is frozen
    extra: dict[str, str] = field(default_factory=dict)   # OEM and newer-release lines, verbatim

    @property
    def plugged(self) -> bool:
        return self.ac_powered or self.usb_powered or self.wireless_powered or bool(self.dock_powered)

    @property
    def status_name(self) -> str:
        return STATUS_NAMES.get(self.status, f"status {self.status}")

    @property
    def temperature_c(self) -> float:
        return self.temperature_dc / 10.0

    @property
    def voltage_v(self) -> float:
        return self.voltage_mv / 1000.0


_KNOWN = {
    "AC powered": "ac_powered", "USB powered": "usb_powered", "Wireless powered": "wireless_powered",
    "Dock powered": "dock_powered", "Max charging current": "max_charging_current_ua",
    "Max charging voltage": "max_charging_voltage_uv", "Charge counter": "charge_counter_uah",
    "status": "status", "health": "health", "present": "present", "level": "level",
    "scale": "scale", "voltage": "voltage_mv", "temperature": "temperature_dc", "technology": "technology",
}
_BOOLS = {"ac_powered", "usb_powered", "wireless_powered", "dock_powered", "present"}
_REQUIRED = ("ac_powered", "usb_powered", "status", "level", "voltage_mv", "temperature_dc")


def _bool(text: str, key: str) -> bool:
    if text not in ("true", "false"):
        raise PowerError(f"dumpsys battery: {key!r} is {text!r}, expected true/false")
    return text == "true"


def _int(text: str, key: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PowerError(f"dumpsys battery: {key!r} is {text!r}, expected an integer") from None


def parse_dumpsys_battery(text: str) -> BatteryState:
    """Parse ``dumpsys battery``; raises PowerError if it is not a BatteryService dump."""
    lines = text.replace("\r\n", "\n").split("\n")
    try:
        start = next(i for i, ln in enumerate(lines) if ln.strip() == BATTERY_HEADER)
    except StopIteration:
        head = text.strip().splitlines()[:1]
        raise PowerError(f"dumpsys battery: no {BATTERY_HEADER!r} header (got {head[0] if head else 'nothing'!r})") from None
    values: dict[str, object] = {}
    extra: dict[str, str] = {}
    stopped = False
    for ln in lines[start + 1:]:
        s = ln.strip()
        if not s:
            continue
        if s.startswith(UPDATES_STOPPED):
            stopped = True
            continue
        if not ln.startswith(" "):
            break                                   # the next service's section
        key, sep, val = s.partition(":")
        if not sep:
            extra[s] = ""
            continue
        key, val = key.strip(), val.strip()
        name = _KNOWN.get(key)
        if name is None or name in values:
            extra.setdefault(key, val)              # OEM lines may repeat a key in other case/units
        elif name in _BOOLS:
            values[name] = _bool(val, key)
        elif name == "technology":
            values[name] = val
        else:
            values[name] = _int(val, key)
    missing = [k for k in _REQUIRED if k not in values]
    if missing:
        raise PowerError(f"dumpsys battery: missing field(s) {', '.join(missing)}")
    return BatteryState(
        ac_powered=values["ac_powered"], usb_powered=values["usb_powered"],
        wireless_powered=values.get("wireless_powered", False), dock_powered=values.get("dock_powered"),
        status=values["status"], level=values["level"], scale=values.get("scale", 100),
        voltage_mv=values["voltage_mv"], temperature_dc=values["temperature_dc"],
        charge_counter_uah=values.get("charge_counter_uah"),
        max_charging_current_ua=values.get("max_charging_current_ua"),
        max_charging_voltage_uv=values.get("max_charging_voltage_uv"),
        health=values.get("health"), present=values.get("present", True),
        technology=values.get("technology", ""), updates_stopped=stopped, extra=extra)


@dataclass(frozen=True)
class RailEnergy:
    """One ODPM rail: energy accumulated since boot (and since the previous ``delta`` dump)."""

    rail: str                 # e.g. S2S_VDD_G3D
    subsystem: str            # e.g. GPU
    energy_uws: float         # cumulative, microwatt-seconds
    delta_uws: float | None = None


@dataclass(frozen=True)
class RailSnapshot:
    rails: list[RailEnergy]
    elapsed_ms: int | None = None          # only in `delta` dumps
    consumers_uws: dict[str, float] = field(default_factory=dict)

    def by_rail(self) -> dict[str, RailEnergy]:
        return {r.rail: r for r in self.rails}


_METER_BEGIN = "============= PowerStats HAL 2.0 energy meter"
_METER_END = "========== End of PowerStats HAL 2.0 energy meter"
_CONSUMER_BEGIN = "============= PowerStats HAL 2.0 energy consumers"
_CONSUMER_END = "========== End of PowerStats HAL 2.0 energy consumers"
_RAIL_ROW = re.compile(r"^\s*\[(?P<rail>[^\]]+)\]:(?P<sub>\S*)\s+(?P<e>-?[\d.]+)\s+mWs(?:\s+\(\s*(?P<d>-?[\d.]+)\))?\s*$")
_CONSUMER_ROW = re.compile(r"^(?P<name>\S.*?)\s+:\s+(?P<e>-?[\d.]+)\s+mWs\s*$")
_ELAPSED = re.compile(r"Elapsed time:\s+(\d+)\s+ms")


def parse_power_stats(text: str) -> RailSnapshot:
    """Parse the PowerStats HAL 2.0 dump; PowerError if it has no energy meter table (no ODPM)."""
    lines = text.replace("\r\n", "\n").split("\n")
    try:
        begin = next(i for i, ln in enumerate(lines) if ln.startswith(_METER_BEGIN))
    except StopIteration:
        raise PowerError("IPowerStats dump has no 'PowerStats HAL 2.0 energy meter' table "
                         "(this device has no on-device power monitor, or the HAL is absent)") from None
    rails: list[RailEnergy] = []
    elapsed = None
    for ln in lines[begin + 1:]:
        if ln.startswith(_METER_END):
            break
        if (m := _ELAPSED.search(ln)) is not None:
            elapsed = int(m.group(1))
        if (m := _RAIL_ROW.match(ln)) is not None:
            d = m.group("d")
            rails.append(RailEnergy(m.group("rail"), m.group("sub"), float(m.group("e")) * 1000.0,
                                    float(d) * 1000.0 if d is not None else None))
    consumers: dict[str, float] = {}
    in_consumers = False
    for ln in lines:
        if ln.startswith(_CONSUMER_BEGIN):
            in_consumers = True
        elif ln.startswith(_CONSUMER_END):
            in_consumers = False
        elif in_consumers and (m := _CONSUMER_ROW.match(ln)) is not None:
            consumers[m.group("name").strip()] = float(m.group("e")) * 1000.0
    if not rails:
        raise PowerError("IPowerStats dump: the energy meter table has no rail rows")
    return RailSnapshot(rails, elapsed, consumers)


def rail_power_w(before: RailSnapshot, after: RailSnapshot, seconds: float) -> dict[str, float]:
    """Mean power per rail between two cumulative snapshots taken ``seconds`` apart."""
    if seconds <= 0:
        raise PowerError(f"rail power needs a positive interval, got {seconds} s")
    b = before.by_rail()
    return {r.rail: (r.energy_uws - b[r.rail].energy_uws) / 1e6 / seconds
            for r in after.rails if r.rail in b}


@dataclass
class PerfettoPower:
    """Battery counters and rail energies from perfetto's ``android.power`` data source."""

    battery: dict[str, list[tuple[int, float]]] = field(default_factory=dict)  # counter -> [(ts_ns, value)]
    rails: dict[str, list[tuple[int, float]]] = field(default_factory=dict)    # rail -> [(ts_ms|ns, uWs)]
    rail_subsystem: dict[str, str] = field(default_factory=dict)
    rail_sampling_rate: dict[str, int] = field(default_factory=dict)


_FIELD = re.compile(r"^\s*(\w+)\s*:\s*(\"(?:[^\"\\]|\\.)*\"|[-+\w.]+)\s*$")
_OPEN = re.compile(r"^\s*(\w+)\s*\{\s*$")
_BATTERY_FIELDS = ("charge_counter_uah", "capacity_percent", "current_ua", "current_avg_ua",
                   "voltage_uv", "energy_counter_uwh")


def _textproto_tree(text: str) -> list[tuple[str, dict]]:
    """Tiny protobuf text-format reader: nested ``name { ... }`` blocks and ``key: value`` fields."""
    root: list[tuple[str, dict]] = []
    stack: list[list[tuple[str, dict]]] = [root]
    nodes: list[dict] = []
    for n, raw in enumerate(text.splitlines(), 1):
        ln = raw.split("#", 1)[0].rstrip()
        if not ln.strip():
            continue
        if (m := _OPEN.match(ln)) is not None:
            node: dict = {"_children": []}
            stack[-1].append((m.group(1), node))
            stack.append(node["_children"])
            nodes.append(node)
        elif ln.strip() == "}":
            if len(stack) == 1:
                raise PowerError(f"perfetto textproto line {n}: unmatched '}}'")
            stack.pop()
            nodes.pop()
        elif (m := _FIELD.match(ln)) is not None:
            if not nodes:
                raise PowerError(f"perfetto textproto line {n}: field outside a packet: {raw.strip()!r}")
            val = m.group(2)
            nodes[-1][m.group(1)] = val[1:-1] if val.startswith('"') else val
        else:
            raise PowerError(f"perfetto textproto line {n}: cannot parse {raw.strip()!r}")
    if len(stack) != 1:
        raise PowerError("perfetto textproto: unclosed '{' at end of text")
    return root


def _children(node: dict, name: str) -> list[dict]:
    return [c for n, c in node["_children"] if n == name]


def parse_perfetto_textproto(text: str) -> PerfettoPower:
    """Text-format trace (``traceconv text``) holding ``battery`` and ``power_rails`` packets."""
    out = PerfettoPower()
    rail_of_index: dict[str, str] = {}        # descriptors come once; later packets carry indices only
    for name, packet in _textproto_tree(text):
        if name != "packet":
            continue
        ts = int(packet.get("timestamp", 0))
        for bat in _children(packet, "battery"):
            for key in _BATTERY_FIELDS:
                if key in bat:
                    out.battery.setdefault(key, []).append((ts, float(bat[key])))
        for rails in _children(packet, "power_rails"):
            for desc in _children(rails, "rail_descriptor"):
                idx = desc.get("index", "0")
                rail = desc.get("rail_name", f"rail{idx}")
                rail_of_index[idx] = rail
                out.rail_subsystem[rail] = desc.get("subsys_name", "")
                out.rail_sampling_rate[rail] = int(desc.get("sampling_rate", 0))
            for data in _children(rails, "energy_data"):
                idx = data.get("index", "0")
                rail = rail_of_index.get(idx, f"rail{idx}")
                out.rails.setdefault(rail, []).append((int(data.get("timestamp_ms", 0)), float(data.get("energy", 0))))
    if not out.battery and not out.rails:
        raise PowerError("perfetto trace has no 'battery' or 'power_rails' packets "
                         "(was the android.power data source enabled?)")
    return out


def parse_trace_processor_counters(text: str) -> PerfettoPower:
    """CSV from trace_processor (``select ts, name, value`` over counter tracks): ``batt.*`` are
    battery counters, ``power.*`` rail energies in uWs."""
    reader = csv.DictReader(io.StringIO(text.strip()))
    need = {"ts", "name", "value"}
    if reader.fieldnames is None or not need <= {f.strip().strip('"') for f in reader.fieldnames}:
        raise PowerError(f"trace_processor CSV needs columns {sorted(need)}, got {reader.fieldnames}")
    out = PerfettoPower()
    for row in reader:
        name, ts, value = row["name"], int(float(row["ts"])), float(row["value"])
        if name.startswith("batt."):
            out.battery.setdefault(name, []).append((ts, value))
        elif name.startswith("power."):
            rail = name[len("power."):]
            rail = rail[:-len("_uws")] if rail.endswith("_uws") else rail
            out.rails.setdefault(rail, []).append((ts, value))
    if not out.battery and not out.rails:
        raise PowerError("trace_processor CSV has no batt.* or power.* counters")
    return out
