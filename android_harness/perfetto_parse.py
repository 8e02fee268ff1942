"""Parsers for perfetto's ``android.power`` data source: text-format trace packets
(``traceconv text``: ``battery {..}`` and ``power_rails {..}``) and trace_processor CSV of counter
tracks (``ts,name,value``: ``batt.*`` battery counters, ``power.<rail>_uws`` rail energies).

Every number must be finite; a value that is not (``1.2.3``, ``inf``) is a PowerError naming the
line, never a silently dropped sample.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from android_harness.errors import PowerError
from android_harness.power_number import finite_number


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
        ts = int(finite_number(packet.get("timestamp", "0"), "perfetto packet timestamp"))
        for bat in _children(packet, "battery"):
            for key in _BATTERY_FIELDS:
                if key in bat:
                    out.battery.setdefault(key, []).append((ts, finite_number(bat[key], f"perfetto packet at {ts}: battery.{key}")))
        for rails in _children(packet, "power_rails"):
            for desc in _children(rails, "rail_descriptor"):
                idx = desc.get("index", "0")
                rail = desc.get("rail_name", f"rail{idx}")
                rail_of_index[idx] = rail
                out.rail_subsystem[rail] = desc.get("subsys_name", "")
                out.rail_sampling_rate[rail] = int(finite_number(desc.get("sampling_rate", "0"), f"rail {rail} sampling_rate"))
            for data in _children(rails, "energy_data"):
                idx = data.get("index", "0")
                rail = rail_of_index.get(idx, f"rail{idx}")
                energy = finite_number(data.get("energy", "0"), f"perfetto packet at {ts}: energy_data of {rail}")
                if energy < 0:
                    raise PowerError(f"perfetto packet at {ts}: energy_data of {rail} is negative ({energy:g} uWs)")
                stamp = int(finite_number(data.get("timestamp_ms", "0"), f"perfetto packet at {ts}: timestamp_ms"))
                out.rails.setdefault(rail, []).append((stamp, energy))
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
    for n, row in enumerate(reader, 2):
        if None in row.values() or None in row:
            raise PowerError(f"trace_processor CSV line {n}: expected 3 cells (ts,name,value), got {row}")
        name = row["name"]
        ts, value = int(finite_number(row["ts"], f"trace_processor CSV line {n}: ts")), finite_number(row["value"], f"trace_processor CSV line {n}: value")
        if name.startswith("batt."):
            out.battery.setdefault(name, []).append((ts, value))
        elif name.startswith("power."):
            rail = name[len("power."):]
            rail = rail[:-len("_uws")] if rail.endswith("_uws") else rail
            out.rails.setdefault(rail, []).append((ts, value))
    if not out.battery and not out.rails:
        raise PowerError("trace_processor CSV has no batt.* or power.* counters")
    return out
