"""Raw battery counters -> a ``PowerTrace`` in watts, with the pitfalls of phone counters checked.

The pitfalls: vendors differ in current units (uA/mA) and sign (positive into or
out of the battery); a phone on USB is charging even after ``dumpsys battery unplug``; fuel gauges
refresh every 1-30 s, so many samples repeat; and counters are only trustworthy over long windows,
which the cross-check of integrated current against ``charge_counter`` makes visible.
Every field is bounded (android_harness/power_units.py): a value no phone can report (voltage 0, 1e15 uA,
capacity 250 %) is a PowerError naming the file, line and field, never a number.

Sign convention inside edgecl: ``discharge_a`` and ``power_w`` are positive when the battery feeds
the phone. A charging sample has power flowing the other way and its energy is refused unless the
caller passes ``allow_charging=True``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from android_harness.power_units import (CHARGING_INTO_A, CURRENT_SCALE, EXTERNAL_POWER_STATUS, NOMINAL_V,
                                         VOLTAGE_SCALE, VOLTAGE_V, current_unit, sign_from_status, voltage_unit)
from pipeline.energy.gauge import refreshes
from pipeline.energy.power_csv import RawPowerCsv
from pipeline.errors import PowerError

SLOW_GAUGE_S = 5.0               # a counter unchanged this long: energies need long windows
CROSS_CHECK_TOL = 0.15           # integrated current vs charge_counter, relative
CROSS_CHECK_MIN_STEPS = 20       # counter delta must span this many counter steps to be conclusive
MAX_SAMPLE_A = 30.0              # |current| of one sample beyond this is a glitch, not a reading
MAX_SAMPLE_W = 150.0             # |power| of one sample beyond this, likewise
TEMP_DC = (-400, 1000)           # battery temperature in tenths of a degree C
MAX_CHARGE_UAH = 100e6           # 100 Ah: no phone battery holds more
STATUSES = ("", "Unknown", "Charging", "Discharging", "Not charging", "Full")   # kernel power_supply ABI


@dataclass(frozen=True)
class CounterConvention:
    """Units and sign of the raw counters; ``"auto"`` infers them from the trace itself."""

    current_unit: str = "auto"               # "uA" | "mA" | "auto"
    current_positive_when: str = "auto"      # "charging" | "discharging" | "auto"
    voltage_unit: str = "auto"               # "uV" | "mV" | "auto"
    source: str = "auto"

    def __post_init__(self) -> None:
        for name, allowed in (("current_unit", ("uA", "mA", "auto")),
                              ("current_positive_when", ("charging", "discharging", "auto")),
                              ("voltage_unit", ("uV", "mV", "V", "auto"))):
            if getattr(self, name) not in allowed:
                raise PowerError(f"counter convention {name}={getattr(self, name)!r}; expected one of {allowed}")

    @classmethod
    def from_profile(cls, profile: Any) -> "CounterConvention":
        """From a DeviceProfile (or its JSON dict). A profile whose sign was a default, not an
        inference or an override, is re-inferred from the trace."""
        get = profile.get if isinstance(profile, dict) else (lambda k, d=None: getattr(profile, k, d))
        source = str(get("convention_source", "") or "profile")
        guessed = source.startswith("default")
        return cls(current_unit=get("current_unit", "auto") or "auto",
                   current_positive_when="auto" if guessed else (get("current_positive_when", "auto") or "auto"),
                   voltage_unit=get("voltage_unit", "auto") or "auto",
                   source=f"profile ({source})")

    @property
    def overridden(self) -> bool:
        """The units came from the user (a profile override), not from an inference."""
        return "override" in self.source


@dataclass(frozen=True)
class GaugeQuality:
    """How often the fuel gauge really refreshed, seen from repeated identical readings."""

    update_s: float | None          # median time a reading stayed unchanged
    longest_constant_s: float
    distinct_readings: int
    stale: bool                     # the current never changed over the whole trace
    regular: bool = False           # refreshes sit on a fixed-period grid


@dataclass(frozen=True)
class ChargeCheck:
    """Integrated current vs the fuel gauge's charge_counter over the same window."""

    verdict: str                    # "ok" | "mismatch" | "inconclusive" | "unavailable"
    integrated_mah: float
    counter_mah: float | None
    rel_diff: float | None
    note: str = ""


@dataclass
class PowerTrace:
    """A normalised power trace on the device's monotonic clock."""

    t: np.ndarray                   # seconds, device clock (see ``clock``)
    discharge_a: np.ndarray         # + = out of the battery
    voltage_v: np.ndarray
    power_w: np.ndarray             # discharge_a * voltage_v
    charging: np.ndarray            # bool per sample: charger feeding the phone
    charge_counter_uah: np.ndarray  # nan where unreadable
    energy_counter_uwh: np.ndarray  # nan where unreadable (most phones have none)
    t_boot: np.ndarray              # CLOCK_BOOTTIME of each sample where the sampler wrote it, else nan
    current_lsb_a: float            # one step of the current reading (1 uA / 1 mA): its rounding error
    capacity_pct: np.ndarray
    temp_c: np.ndarray
    status: list[str]
    simulated: bool
    clock: str = "CLOCK_MONOTONIC"
    requested_rate_hz: float | None = None
    convention: dict[str, str] = field(default_factory=dict)
    gauge: GaugeQuality | None = None
    warnings: list[str] = field(default_factory=list)
    source: str = ""

    def __len__(self) -> int:
        return len(self.t)

    @property
    def duration_s(self) -> float:
        return float(self.t[-1] - self.t[0]) if len(self.t) > 1 else 0.0

    @property
    def achieved_rate_hz(self) -> float:
        return (len(self.t) - 1) / self.duration_s if self.duration_s > 0 else 0.0

    @property
    def charging_samples(self) -> int:
        return int(self.charging.sum())

    def _window(self, t0: float | None, t1: float | None) -> tuple[float, float]:
        lo = float(self.t[0]) if t0 is None else max(float(t0), float(self.t[0]))
        hi = float(self.t[-1]) if t1 is None else min(float(t1), float(self.t[-1]))
        return lo, hi

    def cumulative_energy_j(self, ts: np.ndarray | float) -> np.ndarray:
        """Exact integral of the piecewise-linear power from t[0] to each of ``ts`` (clamped)."""
        t, p = self.t, self.power_w
        seg = np.diff(t) * (p[:-1] + p[1:]) / 2.0
        knots = np.concatenate([[0.0], np.cumsum(seg)])
        q = np.clip(np.asarray(ts, dtype=float), t[0], t[-1])
        i = np.clip(np.searchsorted(t, q, side="right") - 1, 0, len(t) - 2)
        h = t[i + 1] - t[i]
        dt = q - t[i]
        slope = np.where(h > 0, (p[i + 1] - p[i]) / np.where(h > 0, h, 1.0), 0.0)
        return knots[i] + p[i] * dt + 0.5 * slope * dt * dt

    def charging_between(self, t0: float | None = None, t1: float | None = None) -> int:
        """Charging samples whose neighbourhood touches [t0, t1] (the samples integrated there)."""
        lo, hi = self._window(t0, t1)
        a = max(int(np.searchsorted(self.t, lo, side="right")) - 1, 0)
        b = min(int(np.searchsorted(self.t, hi, side="left")), len(self.t) - 1)
        return int(self.charging[a:b + 1].sum())

    def energy_j(self, t0: float | None = None, t1: float | None = None, *, allow_charging: bool = False) -> float:
        """Battery energy spent in [t0, t1]. Refused (PowerError) if the phone was charging there."""
        if len(self.t) < 2:
            raise PowerError(f"power trace {self.source or ''} has {len(self.t)} sample(s); energy needs >= 2")
        lo, hi = self._window(t0, t1)
        if hi <= lo:
            return 0.0
        n = self.charging_between(lo, hi)
        if n and not allow_charging:
            raise PowerError(
                f"{n} sample(s) in [{lo:.3f}, {hi:.3f}] s were taken while charging or on a charger (status "
                f"{'/'.join(EXTERNAL_POWER_STATUS)}, or current into the battery): battery counters then "
                "measure the charger, not the workload (`dumpsys battery unplug` does not stop charging). "
                "Disconnect USB power (adb over Wi-Fi, or a VBUS-cutting hub), or pass allow_charging=True "
                "(--allow-charging) to report net battery energy anyway")
        e = self.cumulative_energy_j(np.array([lo, hi]))
        return float(e[1] - e[0])

    def mean_power_w(self, t0: float | None = None, t1: float | None = None, *, allow_charging: bool = False) -> float:
        lo, hi = self._window(t0, t1)
        return self.energy_j(lo, hi, allow_charging=allow_charging) / (hi - lo) if hi > lo else float("nan")

    def cross_check(self, t0: float | None = None, t1: float | None = None) -> ChargeCheck:
        """Charge through the battery from integrating current vs the charge_counter delta."""
        lo, hi = self._window(t0, t1)
        m = (self.t >= lo) & (self.t <= hi)
        t, i = self.t[m], self.discharge_a[m]
        integrated = float(np.trapezoid(i, t)) / 3.6 if len(t) > 1 else 0.0       # A*s -> mAh
        cc = self.charge_counter_uah[m]
        ok = ~np.isnan(cc)
        if ok.sum() < 2:
            return ChargeCheck("unavailable", integrated, None, None, "charge_counter unreadable")
        vals = cc[ok]
        counter = float(vals[0] - vals[-1]) / 1000.0                              # uAh drop -> mAh
        steps = np.abs(np.diff(vals))
        step = float(steps[steps > 0].min()) / 1000.0 if (steps > 0).any() else None
        if step is None or abs(counter) < CROSS_CHECK_MIN_STEPS * step:
            return ChargeCheck("inconclusive", integrated, counter, None,
                               f"charge_counter moved {counter:.3f} mAh, under {CROSS_CHECK_MIN_STEPS} of its "
                               f"steps ({step if step is not None else 0:.3f} mAh): window too short")
        rel = (integrated - counter) / abs(counter)
        verdict = "ok" if abs(rel) <= CROSS_CHECK_TOL else "mismatch"
        note = "" if verdict == "ok" else (
            f"integrated current {integrated:.2f} mAh vs charge_counter {counter:.2f} mAh "
            f"({rel:+.0%}): check the current unit/sign or the gauge's update rate")
        return ChargeCheck(verdict, integrated, counter, float(rel), note)

    def summary(self, allow_charging: bool = False) -> dict[str, Any]:
        """Headline figures; energy is None (with the reason) where it was refused."""
        out: dict[str, Any] = {
            "simulated": self.simulated, "samples": len(self), "duration_s": round(self.duration_s, 3),
            "requested_rate_hz": self.requested_rate_hz, "achieved_rate_hz": round(self.achieved_rate_hz, 3),
            "charging_samples": self.charging_samples, "convention": self.convention,
            "gauge_update_s": self.gauge.update_s if self.gauge else None,
            "gauge_stale": self.gauge.stale if self.gauge else None, "warnings": list(self.warnings)}
        try:
            e = self.energy_j(allow_charging=allow_charging)
            out["energy_j"], out["mean_power_w"] = round(e, 6), round(e / self.duration_s, 6) if self.duration_s else None
        except PowerError as exc:
            out["energy_j"], out["mean_power_w"], out["energy_refused"] = None, None, str(exc)
        cc = self.cross_check()
        out["cross_check"] = {"verdict": cc.verdict, "integrated_mah": round(cc.integrated_mah, 4),
                              "counter_mah": cc.counter_mah, "rel_diff": cc.rel_diff, "note": cc.note}
        return out




def _step(raw: np.ndarray) -> float:
    """The reading's quantum: 1 for integer readings (the kernel prints integers), else 0."""
    v = raw[~np.isnan(raw)]
    return 1.0 if len(v) and np.all(v == np.rint(v)) else 0.0


def _dominant_status(status: list[str]) -> str:
    known = [s for s in status if s in ("Charging", "Discharging")]
    return max(set(known), key=known.count) if known else ""


def _check_range(raw: RawPowerCsv, values: np.ndarray, lo: float, hi: float, field: str, what: str) -> None:
    """PowerError naming the first sample of ``values`` outside [lo, hi] (NaN = unreadable, allowed)."""
    bad = np.flatnonzero(~np.isnan(values) & ((values < lo) | (values > hi)))
    if len(bad):
        k = int(bad[0])
        raise PowerError(f"{raw.path} line {raw.line_of[k]}: {field}={raw.columns[field][k]!r} is {what} "
                         f"(bounds {lo:g}..{hi:g}); {len(bad)} such sample(s)")


def resolve_convention(raw: RawPowerCsv, conv: CounterConvention, current: np.ndarray,
                       volts_raw: np.ndarray) -> dict[str, str]:
    """Fill the ``auto`` parts from the trace: voltage unit from magnitude, current unit from P=V*I
    plausibility, sign from ``status``. Raises PowerError when no reading makes physical sense."""
    status = _dominant_status(raw.columns["status"])
    notes = []
    if (~np.isnan(volts_raw)).any():
        v_choice = voltage_unit(float(np.nanmedian(volts_raw)), conv.voltage_unit if conv.overridden else "auto")
        volts = float(np.nanmedian(volts_raw)) * VOLTAGE_SCALE[v_choice.unit]
        notes.append(v_choice.how)
        v_unit = v_choice.unit
    else:
        v_unit, volts = (conv.voltage_unit if conv.voltage_unit != "auto" else "uV"), NOMINAL_V
    pick = np.array([c for c, s in zip(current, raw.columns["status"]) if s == status and not math.isnan(c) and c != 0])
    if len(pick) == 0:
        pick = current[~np.isnan(current) & (current != 0)]
    if len(pick) == 0:
        raise PowerError(f"{raw.path}: current_now is 0 or unreadable in every sample "
                         f"({raw.meta.get('file_current', 'path unknown')}): no power can be read from it")
    rep = float(np.median(pick))
    charging = status == "Charging"
    c_choice = current_unit(abs(rep), volts, charging, conv.current_unit, conv.overridden)
    notes.append(c_choice.how)
    sign, how = sign_from_status(rep, status)
    if conv.current_positive_when != "auto":
        if sign is not None and sign != conv.current_positive_when and not conv.overridden:
            notes.append(f"{how} (the profile's {conv.current_positive_when} was inferred; the trace decides)")
        else:
            sign = conv.current_positive_when
            notes.append(f"sign from the profile ({conv.current_positive_when})")
    elif sign is None:
        sign = "charging"
        notes.append(f"{how}: Android's convention (+ into the battery) assumed")
    else:
        notes.append(how)
    return {"current_unit": c_choice.unit, "current_positive_when": sign, "voltage_unit": v_unit,
            "how": f"{conv.source}; " + "; ".join(notes)}


def gauge_quality(t: np.ndarray, current: np.ndarray) -> GaugeQuality:
    """How often the current reading changed: the refresh period, the longest hold, staleness."""
    if len(t) < 2:
        return GaugeQuality(None, 0.0, len(t), False)
    ref = refreshes(t, current)
    change = np.flatnonzero(np.diff(current) != 0) + 1
    edges = np.concatenate([[0], change, [len(t) - 1]])
    longest = float(np.max(np.diff(t[edges]))) if len(edges) > 1 else float(t[-1] - t[0])
    stale = len(change) == 0 and float(t[-1] - t[0]) >= 2.0
    return GaugeQuality(ref.period_s if ref.observed >= 2 else None, longest, len(change) + 1, stale, ref.regular)


def normalise(raw: RawPowerCsv, conv: CounterConvention, *, simulated: bool) -> PowerTrace:
    """Raw power.csv -> PowerTrace in A, V, W with charging, staleness and conventions decided."""
    if len(raw) < 2:
        raise PowerError(f"{raw.path}: {len(raw)} sample row(s); a trace needs at least 2")
    t = np.asarray(raw.t, dtype=float)
    if np.any(np.diff(t) <= 0):
        bad = int(np.flatnonzero(np.diff(t) <= 0)[0])
        raise PowerError(f"{raw.path} line {raw.line_of[bad + 1]}: time goes backwards or repeats "
                         f"({t[bad]:.6f} -> {t[bad + 1]:.6f}); two samplers wrote one file?")
    for k, s in enumerate(raw.columns["status"]):
        if s not in STATUSES:
            raise PowerError(f"{raw.path} line {raw.line_of[k]}: status={s!r}; expected one of {', '.join(STATUSES[1:])}")
    cur = raw.numbers("current")
    if np.isnan(cur).all():
        raise PowerError(f"{raw.path}: current column is empty: the sampler could not read current_now "
                         f"({raw.meta.get('file_current', 'path unknown')}); fix the profile's current_now_path")
    volts_raw = raw.numbers("voltage")
    warnings: list[str] = []
    res = resolve_convention(raw, conv, cur, volts_raw)
    discharge = cur * CURRENT_SCALE[res["current_unit"]] * (-1.0 if res["current_positive_when"] == "charging" else 1.0)
    _check_range(raw, np.abs(cur * CURRENT_SCALE[res["current_unit"]]), 0.0, MAX_SAMPLE_A, "current",
                 f"beyond {MAX_SAMPLE_A:g} A in {res['current_unit']} (a glitch no battery delivers)")
    if np.isnan(volts_raw).all():
        warnings.append(f"voltage unreadable: power uses a nominal {NOMINAL_V} V")
        volts = np.full(len(t), NOMINAL_V)
    else:
        volts = volts_raw * VOLTAGE_SCALE[res["voltage_unit"]]
        _check_range(raw, volts, *VOLTAGE_V, "voltage", f"no battery voltage in {res['voltage_unit']}")
        if np.isnan(volts).any():
            volts = np.interp(t, t[~np.isnan(volts)], volts[~np.isnan(volts)])
    if np.isnan(discharge).any():
        ok = ~np.isnan(discharge)
        warnings.append(f"{int((~ok).sum())} unreadable current sample(s) filled from neighbours")
        discharge = np.interp(t, t[ok], discharge[ok])
    _check_range(raw, np.abs(discharge * volts), 0.0, MAX_SAMPLE_W, "current", f"a power beyond {MAX_SAMPLE_W:g} W")
    status = list(raw.columns["status"])
    charging = np.array([s in EXTERNAL_POWER_STATUS for s in status]) | (discharge < -CHARGING_INTO_A)
    if charging.any():
        warnings.append(f"{int(charging.sum())} of {len(t)} samples taken while charging")
    capacity = raw.numbers("capacity")
    _check_range(raw, capacity, 0, 100, "capacity", "no battery level in percent")
    temp = raw.numbers("temp")
    _check_range(raw, temp, *TEMP_DC, "temp", "no battery temperature in 0.1 degC")
    cc = raw.numbers("charge_counter")
    _check_range(raw, cc, 0, MAX_CHARGE_UAH, "charge_counter", "no battery charge in uAh")
    if (~np.isnan(cc)).any() and np.nanmax(cc) < 20_000:
        cc = cc * 1000.0                                     # a gauge reporting mAh, not uAh
        warnings.append("charge_counter read as mAh (values too small for uAh)")
    energy = raw.numbers("energy_counter")
    _check_range(raw, energy, 0, 1e9, "energy_counter", "no battery energy in uWh")
    gauge = gauge_quality(t, cur)
    if gauge.stale:
        warnings.append(f"current_now never changed over {t[-1] - t[0]:.1f} s: the fuel gauge is not "
                        "updating (or the file is frozen); these energies are not measurements")
    elif gauge.longest_constant_s > SLOW_GAUGE_S:
        warnings.append(f"fuel gauge held one reading for up to {gauge.longest_constant_s:.1f} s "
                        f"(typical refresh {gauge.update_s or 0:.1f} s): phases shorter than a few refreshes are rough")
    if raw.meta.get("stopped_overruns", "0") not in ("0", ""):
        warnings.append(f"sampler missed {raw.meta['stopped_overruns']} slot(s) (CPU contention)")
    rate = raw.meta.get("rate_hz")
    return PowerTrace(
        t=t, discharge_a=discharge, voltage_v=volts, power_w=discharge * volts, charging=charging,
        charge_counter_uah=cc, energy_counter_uwh=energy, t_boot=raw.numbers("t_boot"),
        current_lsb_a=_step(cur) * CURRENT_SCALE[res["current_unit"]], capacity_pct=capacity,
        temp_c=temp / 10.0, status=status, simulated=simulated,
        clock=raw.meta.get("clock", "CLOCK_MONOTONIC"), requested_rate_hz=float(rate) if rate else None,
        convention={k: str(v) for k, v in res.items()}, gauge=gauge, warnings=warnings, source=raw.path)
