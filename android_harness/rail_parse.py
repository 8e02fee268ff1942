"""Parsers for the on-device power monitor (ODPM) rails, in the three text forms a phone gives a shell.

- ``dumpsys android.hardware.power.stats.IPowerStats/default [delta]``: the Pixel PowerStats HAL's
  dump (hardware/google/pixel ``powerstats/PowerStatsAidl.cpp``): tables between begin/end banners:
  "energy consumers" (``%-12s : %14.2f mWs``, each followed by its per-app attribution rows
  ``  %10d - %14.2f mWs``: uid, energy) and the "energy meter" (``  %32s   %14.2f mWs`` with the
  channel as ``[RAIL]:subsystem``; with ``delta``: ``Elapsed time: N ms`` and `` (%14.2f)`` since
  the previous delta dump). The HAL prints ``(float)energyUWs / 1000``: the energy rounded to float32's
  24 significant bits first (above 2^24 uWs, ~16.8 J, steps of 2 uWs and more).
- ``dumpsys powerstats``: the framework service (frameworks/base ``PowerStatsService`` +
  ``ProtoStreamUtils.ChannelUtils.dumpsys``) lists channels as ``ChannelId: 0, ChannelName: X,
  ChannelSubsystem: Y`` and prints no energies itself; energies appear as the AIDL parcelable's
  text ``EnergyMeasurement{id: 0, timestampMs: T, durationMs: D, energyUWs: E}`` or the
  service's debug form ``ChannelId: 0, Timestamp (ms): T, Duration (ms): D, Energy (uWs): E``.
- ``/sys/bus/iio/devices/iio:deviceN/energy_value`` (what the Pixel HAL itself reads,
  ``IioEnergyMeterDataProvider.cpp``): ``t=<ms since boot>`` then ``CH3(T=<ms>)[S2M_VDD_CPUCL2], <uWs>``.

Every energy is cumulative since boot, in uWs; a malformed line inside a table is a PowerError
naming it, never skipped, and so is a table without its end banner (a dump cut short). A phone
without rails raises ``NoRailsError``; another command's output (``dumpsys batterystats --checkin``..)
is named as such (``power_text_kind.py``), not taken for a phone without a power monitor.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from android_harness.errors import PowerError
from android_harness.power_text_kind import refuse_foreign

MAX_UWS = 1e18           # ~31 years at 1 kW: beyond this an accumulator value is garbage


class NoRailsError(PowerError):
    """The phone answered, and it has no ODPM rails (no PowerStats service, or no energy meter):
    unlike any other PowerError here, not a dump that could not be read."""


@dataclass(frozen=True)
class RailEnergy:
    """One ODPM rail: energy accumulated since boot (and since the previous ``delta`` dump)."""

    rail: str                 # e.g. S2S_VDD_G3D
    subsystem: str            # e.g. GPU
    energy_uws: float         # cumulative, microwatt-seconds
    delta_uws: float | None = None
    timestamp_ms: int | None = None     # when the meter was read (ms since boot), where the format says


@dataclass(frozen=True)
class RailSnapshot:
    rails: list[RailEnergy]
    elapsed_ms: int | None = None          # only in `delta` dumps
    consumers_uws: dict[str, float] = field(default_factory=dict)     # HAL energy consumer -> uWs since boot
    fmt: str = "hal"                       # "hal" | "framework" | "iio"
    timestamp_ms: int | None = None        # iio ``t=``: when the accumulators were read
    attribution_uws: dict[str, dict[int, float]] = field(default_factory=dict)   # consumer -> uid -> uWs

    def by_rail(self) -> dict[str, RailEnergy]:
        return {r.rail: r for r in self.rails}


def _energy(text: str, scale: float, where: str) -> float:
    try:
        v = float(text) * scale
    except ValueError:
        raise PowerError(f"{where}: energy {text!r} is not a number") from None
    if not math.isfinite(v) or v < 0 or v > MAX_UWS:
        raise PowerError(f"{where}: energy {text!r} is not a cumulative energy (finite, >= 0)")
    return v


_BANNER = re.compile(r"^=+ PowerStats HAL 2\.0 (?P<section>.+?) =+\s*$")
_END = re.compile(r"^=+ End of PowerStats HAL 2\.0 (?P<section>.+?) =+\s*$")
_RAIL_ROW = re.compile(r"^\s*\[(?P<rail>[^\]]+)\]:(?P<sub>.*?)\s+(?P<e>\S+)\s+mWs(?:\s+\(\s*(?P<d>\S+)\s*\))?\s*$")
_METER_HEAD = re.compile(r"^\s*Channel\s+Cumulative Energy")
_CONSUMER_ROW = re.compile(r"^(?P<name>\S.*?)\s+:\s+(?P<e>\S+)\s+mWs\s*$")
_UID_ROW = re.compile(r"^\s+(?P<uid>\d+)\s+-\s+(?P<e>\S+)\s+mWs\s*$")
_ELAPSED = re.compile(r"^\s*Elapsed time:\s+(\d+)\s+ms\s*$")
HAL_WAY_OUT = ("read the rails with `dumpsys android.hardware.power.stats.IPowerStats/default`, "
               "`dumpsys powerstats` or `cat /sys/bus/iio/devices/iio:device*/energy_value`")


def _sections(lines: list[str]) -> dict[str, list[tuple[int, str]]]:
    """Section name -> its (line number, line) rows; PowerError when a section has no end banner
    (the dump was cut short), so a cut table is never read as a complete one."""
    out: dict[str, list[tuple[int, str]]] = {}
    current: str | None = None
    for n, ln in enumerate(lines, 1):
        if (m := _BANNER.match(ln)) is not None:
            if current is not None:
                raise PowerError(f"IPowerStats line {n}: the {current} table has no end banner before the "
                                 f"{m['section']} table (output cut short?)")
            current = m["section"]
            out[current] = []
        elif (m := _END.match(ln)) is not None:
            if m["section"] != current:
                raise PowerError(f"IPowerStats line {n}: end banner of the {m['section']} table outside it")
            current = None
        elif current is not None:
            out[current].append((n, ln))
    if current is not None:
        raise PowerError(f"IPowerStats dump: the {current} table has no end banner (output cut short?)")
    return out


def parse_power_stats(text: str) -> RailSnapshot:
    """The PowerStats HAL 2.0 dump (plain or ``delta``): the energy meter's rails, the energy
    consumers and their per-uid attribution; PowerError if it has no energy meter table (no ODPM)."""
    sections = _sections(text.replace("\r\n", "\n").split("\n"))
    if "energy meter" not in sections:
        if not sections:
            refuse_foreign(text, "an IPowerStats dump", HAL_WAY_OUT)
        raise NoRailsError("IPowerStats dump has no 'PowerStats HAL 2.0 energy meter' table "
                         "(this device has no on-device power monitor, or the HAL is absent)")
    rails: list[RailEnergy] = []
    elapsed = None
    for n, ln in sections["energy meter"]:
        if not ln.strip() or _METER_HEAD.match(ln):
            continue
        if (m := _ELAPSED.match(ln)) is not None:
            elapsed = int(m.group(1))
        elif (m := _RAIL_ROW.match(ln)) is not None:
            where = f"IPowerStats line {n} rail {m.group('rail')}"
            d = m.group("d")
            rails.append(RailEnergy(m.group("rail"), m.group("sub"), _energy(m.group("e"), 1000.0, where),
                                    None if d is None else _delta(d, where)))
        else:
            raise PowerError(f"IPowerStats line {n}: not a rail row inside the energy meter table: {ln.strip()!r}")
    if not rails:
        raise PowerError("IPowerStats dump: the energy meter table has no rail rows")
    consumers, attribution = _consumers(sections.get("energy consumers", []))
    return RailSnapshot(rails, elapsed, consumers, "hal", attribution_uws=attribution)


def _delta(text: str, where: str) -> float:
    try:
        v = float(text) * 1000.0
    except ValueError:
        raise PowerError(f"{where}: delta {text!r} is not a number") from None
    if not math.isfinite(v):
        raise PowerError(f"{where}: delta {text!r} is not finite")
    return v


def _consumers(rows: list[tuple[int, str]]) -> tuple[dict[str, float], dict[str, dict[int, float]]]:
    """``%-12s : %14.2f mWs`` per consumer, each followed by its ``  %10d - %14.2f mWs`` per-uid rows."""
    totals: dict[str, float] = {}
    per_uid: dict[str, dict[int, float]] = {}
    name: str | None = None
    for n, ln in rows:
        if not ln.strip() or _ELAPSED.match(ln):
            continue
        if (m := _UID_ROW.match(ln)) is not None:
            if name is None:
                raise PowerError(f"IPowerStats line {n}: a per-uid row before any energy consumer: {ln.strip()!r}")
            uid = int(m["uid"])
            if uid in per_uid[name]:
                raise PowerError(f"IPowerStats line {n}: uid {uid} appears twice under consumer {name}")
            per_uid[name][uid] = _energy(m["e"], 1000.0, f"IPowerStats line {n} consumer {name} uid {uid}")
        elif (m := _CONSUMER_ROW.match(ln)) is not None:
            name = m["name"].strip()
            if name in totals:
                raise PowerError(f"IPowerStats line {n}: energy consumer {name} appears twice")
            totals[name] = _energy(m["e"], 1000.0, f"IPowerStats line {n} consumer {name}")
            per_uid[name] = {}
        else:
            raise PowerError(f"IPowerStats line {n}: not an energy consumer row (NAME : E mWs) nor a per-uid row "
                             f"(UID - E mWs): {ln.strip()!r}")
    return totals, {k: v for k, v in per_uid.items() if v}


_CHANNEL = re.compile(r"^\s*ChannelId:\s*(?P<id>\d+),\s*ChannelName:\s*(?P<name>[^,]+?),\s*ChannelSubsystem:\s*(?P<sub>.*?)\s*$")
_AIDL_MEAS = re.compile(r"EnergyMeasurement\{id:\s*(?P<id>\S+?),\s*timestampMs:\s*(?P<ts>\S+?),\s*"
                        r"durationMs:\s*(?P<dur>\S+?),\s*energyUWs:\s*(?P<e>\S+?)\}")
_DEBUG_MEAS = re.compile(r"^\s*ChannelId:\s*(?P<id>\S+?),\s*Timestamp \(ms\):\s*(?P<ts>\S+?),\s*"
                         r"(?:Duration \(ms\):\s*(?P<dur>\S+?),\s*)?Energy \(uWs\):\s*(?P<e>\S+?)\s*$")


def _int_field(text: str, what: str, where: str) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise PowerError(f"{where}: {what} {text!r} is not an integer")
    return int(text)


def parse_framework_powerstats(text: str) -> RailSnapshot:
    """``dumpsys powerstats`` channels joined with EnergyMeasurement lines (by channel id)."""
    channels: dict[int, tuple[str, str]] = {}
    meas: dict[int, tuple[int, float]] = {}
    for n, ln in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        where = f"powerstats line {n}"
        if (m := _CHANNEL.match(ln)) is not None:
            channels[int(m.group("id"))] = (m.group("name").strip(), m.group("sub"))
            continue
        m = _AIDL_MEAS.search(ln) or _DEBUG_MEAS.match(ln)
        if m is None:
            if "EnergyMeasurement" in ln or "Energy (uWs)" in ln or "energyUWs" in ln:
                raise PowerError(f"{where}: an energy measurement line in no known form: {ln.strip()!r}")
            continue
        cid = _int_field(m.group("id"), "channel id", where)
        meas[cid] = (_int_field(m.group("ts"), "timestampMs", where), _energy(m.group("e"), 1.0, where))
    if not channels:
        raise PowerError("dumpsys powerstats lists no channels (ChannelId: ..): this device has no on-device "
                         "power monitor, or the PowerStats HAL is absent")
    if not meas:
        raise PowerError(f"dumpsys powerstats lists {len(channels)} ODPM channel(s) "
                         f"({', '.join(n for n, _ in list(channels.values())[:3])}..) but prints no energies; read them "
                         "with `dumpsys android.hardware.power.stats.IPowerStats/default` or the iio energy_value files")
    unknown = sorted(set(meas) - set(channels))
    if unknown:
        raise PowerError(f"dumpsys powerstats: energy for channel id(s) {unknown} that no ChannelId line names")
    rails = [RailEnergy(channels[c][0], channels[c][1], e, None, ts) for c, (ts, e) in sorted(meas.items())]
    return RailSnapshot(rails, None, {}, "framework", max(ts for ts, _ in meas.values()))


_IIO_T = re.compile(r"^t=(\d+)$")
_IIO_ROW = re.compile(r"^CH(?P<ch>\d+)\(T=(?P<dur>\d+)\)\[(?P<rail>[^\]]+)\],\s*(?P<e>\S+)$")


def parse_iio_energy(text: str) -> RailSnapshot:
    """One or more ``energy_value`` files concatenated (each starts with ``t=``)."""
    rails: list[RailEnergy] = []
    ts: int | None = None
    stamps: list[int] = []
    for n, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        ln = raw.strip()
        if not ln:
            continue
        if (m := _IIO_T.match(ln)) is not None:
            ts = int(m.group(1))
            stamps.append(ts)
        elif (m := _IIO_ROW.match(ln)) is not None:
            if ts is None:
                raise PowerError(f"energy_value line {n}: a rail row before the file's t= line")
            rails.append(RailEnergy(m.group("rail"), "", _energy(m.group("e"), 1.0, f"energy_value line {n}"), None, ts))
        else:
            raise PowerError(f"energy_value line {n}: expected t=<ms> or CH<n>(T=<ms>)[RAIL], <uWs>; got {ln!r}")
    if not rails:
        raise PowerError("energy_value: no CH rows (no ODPM rails enabled, or the file is unreadable)")
    return RailSnapshot(rails, None, {}, "iio", max(stamps))


def parse_rails(text: str) -> RailSnapshot:
    """Any of the three forms, recognised by its first distinctive line; another command's output
    is named as such (``power_text_kind``), not taken for a phone without a power monitor."""
    lines = text.replace("\r\n", "\n").split("\n")
    if any(_BANNER.match(ln) for ln in lines):
        return parse_power_stats(text)
    if "ChannelId:" in text or "EnergyMeasurement{" in text:
        return parse_framework_powerstats(text)
    if re.search(r"^\s*t=\d+\s*$", text, flags=re.M):
        return parse_iio_energy(text)
    if "Can't find service" in text or not text.strip():
        raise NoRailsError("no ODPM rails: the PowerStats service is absent on this device "
                         f"({text.strip()[:80] or 'empty output'!r})")
    refuse_foreign(text, "an ODPM rail dump", HAL_WAY_OUT)
    first = next(ln.strip() for ln in lines if ln.strip())
    raise PowerError(f"not an ODPM rail dump in any known form (first line {first[:80]!r}); {HAL_WAY_OUT}")


def rail_power_w(before: RailSnapshot, after: RailSnapshot, seconds: float) -> dict[str, float]:
    """Mean power per rail between two cumulative snapshots taken ``seconds`` apart."""
    if seconds <= 0:
        raise PowerError(f"rail power needs a positive interval, got {seconds} s")
    b = before.by_rail()
    out = {}
    for r in after.rails:
        if r.rail in b:
            d = r.energy_uws - b[r.rail].energy_uws
            if d < 0:
                raise PowerError(f"rail {r.rail}: accumulator went down ({b[r.rail].energy_uws:g} -> {r.energy_uws:g} uWs): "
                                 "a counter reset (reboot or HAL restart) between the two snapshots")
            out[r.rail] = d / 1e6 / seconds
    return out
