"""Cumulative energy from the best counter a phone has, as knots ``(t_k, E_k)`` of known energy.

In the order of preference:
1. ``odpm_rails``: the on-device power monitor's accumulators (rails.txt), summed over rails: exact
   differences, no integration; knots at the snapshots. They cover the monitored rails (CPU, GPU,
   memory, display, modem..), not the whole battery, and are unaffected by a charger.
2. ``energy_counter`` (sysfs ``energy_now``, uWh) or ``charge_counter`` (uAh) x voltage: a coulomb
   counter's value at each refresh; knots at the refreshes; resolution = one counter step.
3. ``current_gauge``: ``current_now`` x ``voltage_now``. A fuel gauge publishes the AVERAGE of the
   period that just ended and holds it, so the value shown from refresh r_k covers [r_{k-1}, r_k]:
   the knots are the refresh instants and each period's energy is its value x its length (the lag
   correction, exact for a sample-and-hold averaging gauge). A gauge as fast as the sampler is
   integrated sample by sample (``current_samples``).
Each curve carries its noise (1-sigma of one interval's mean power), knot timing error, energy
resolution and period, which attribution.py turns into an error bound per figure.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline.energy.gauge import noise_sigma, refreshes
from pipeline.energy.rails import RailSeries
from pipeline.energy.trace import PowerTrace

UAH_TO_C = 3.6e-3          # 1 uAh = 3.6 mC
UWH_TO_J = 3.6e-3          # 1 uWh = 3.6 mJ
MAX_COUNTER_RESOLUTION = 0.02   # a counter step above this share of the window's energy: too coarse
JUMP_FACTOR = 10.0         # a counter step this many times what the current says: a reset/recalibration
SOURCES = ("odpm_rails", "energy_counter", "charge_counter", "current_gauge", "current_samples")


@dataclass
class EnergyCurve:
    source: str
    t: np.ndarray                  # knot times (trace clock), increasing
    e: np.ndarray                  # cumulative energy at the knots, J (e[0] = 0)
    period_s: float                # typical knot spacing = the counter's time resolution
    resolution_j: float            # energy quantum of one counter step
    noise_w: float                 # 1-sigma noise of one interval's mean power (nan: unknown)
    timing_sigma_s: float          # 1-sigma error of one knot's time
    charging: np.ndarray           # per interval: a charger fed the phone (battery sources only)
    bad: np.ndarray                # per interval: a counter reset/jump, unusable
    detail: str
    notes: list[str] = field(default_factory=list)

    @property
    def de(self) -> np.ndarray:
        return np.diff(self.e)

    @property
    def length(self) -> np.ndarray:
        return np.diff(self.t)

    def covers(self, a: float, b: float) -> bool:
        return bool(self.t[0] <= a + 1e-9 and b <= self.t[-1] + 1e-9)

    def overlaps(self, a: float, b: float) -> np.ndarray:
        """Per interval: seconds of it inside [a, b]."""
        return np.clip(np.minimum(self.t[1:], b) - np.maximum(self.t[:-1], a), 0.0, None)

    def bad_in(self, a: float, b: float) -> bool:
        return bool((self.bad & (self.overlaps(a, b) > 0)).any())


def gauge_curve(trace: PowerTrace) -> EnergyCurve:
    """current_now x voltage_now with the gauge's lag corrected (see the module docstring)."""
    t, p = trace.t, trace.power_w
    ref = refreshes(t, trace.discharge_a)
    notes = list(w for w in trace.warnings if "never changed" in w)
    if ref.fast:
        seg = np.diff(t) * (p[:-1] + p[1:]) / 2.0
        period = float(ref.period_s or ref.sample_dt)
        charging = trace.charging[:-1] | trace.charging[1:]
        detail = (f"current_now x voltage_now sampled at {1 / ref.sample_dt:.3g} Hz; the gauge refreshes "
                  + ("never (stale)" if ref.period_s is None else f"every {period:.3g} s, no slower than the sampler"))
        lsb_w = trace.current_lsb_a * float(np.median(trace.voltage_v))
        return EnergyCurve("current_samples", t.copy(), np.concatenate([[0.0], np.cumsum(seg)]), max(period, ref.sample_dt),
                           lsb_w * ref.sample_dt, float(np.hypot(noise_sigma(p), lsb_w / np.sqrt(12))), ref.timing_sigma_s,
                           charging, np.zeros(len(t) - 1, bool), detail, notes)
    period = float(ref.period_s)
    r, owner = ref.times, ref.sample_index
    knots = np.concatenate([[r[0] - 2 * period, r[0] - period], r])
    values = np.concatenate([[p[0]], p[owner]])           # value of interval [knots[i], knots[i+1]]
    e = np.concatenate([[0.0], np.cumsum(values * np.diff(knots))])
    charging = np.concatenate([[trace.charging[0]], trace.charging[owner]])
    unseen = _unsampled(t, knots, 2 * period)
    if unseen.any():
        notes.append(f"the sampler did not run for {int(unseen.sum())} gauge period(s) (phone suspended?): the "
                     "gauge values published then were never read, so that energy is unknown from the gauge")
    detail = (f"current_now x voltage_now, lag corrected: each published value covers the {period:.3g} s "
              f"before its refresh ({'fixed-period grid' if ref.regular else 'refreshes as observed'}, "
              f"{ref.observed} seen)")
    lsb_w = trace.current_lsb_a * float(np.median(trace.voltage_v))
    noise = float(np.hypot(noise_sigma(p[owner]), lsb_w / np.sqrt(12)))
    return EnergyCurve("current_gauge", knots, e, period, lsb_w * period, noise, ref.timing_sigma_s,
                       charging, unseen, detail, notes)


def _unsampled(t: np.ndarray, knots: np.ndarray, gap_s: float) -> np.ndarray:
    """Per knot interval: it lies inside a gap of the samples longer than ``gap_s`` (the values
    published then were never read)."""
    gaps = np.flatnonzero(np.diff(t) > gap_s)
    bad = np.zeros(len(knots) - 1, bool)
    for g in gaps:
        bad |= (knots[1:] > t[g]) & (knots[:-1] < t[g + 1])
    return bad


def _span_means(trace: PowerTrace, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per span [a_i, b_i]: mean voltage of the samples inside (interpolated if none) and whether any
    sample touching it was on a charger."""
    t = trace.t
    lo = np.searchsorted(t, a, side="left")
    hi = np.searchsorted(t, b, side="right")
    cv = np.concatenate([[0.0], np.cumsum(trace.voltage_v)])
    n = hi - lo
    mid = np.interp((a + b) / 2, t, trace.voltage_v)
    volts = np.where(n > 0, (cv[hi] - cv[lo]) / np.maximum(n, 1), mid)
    cc = np.concatenate([[0], np.cumsum(trace.charging)])
    lo2, hi2 = np.clip(lo - 1, 0, len(t)), np.clip(hi + 1, 0, len(t))
    return volts, (cc[hi2] - cc[lo2]) > 0


def _counter_curve(trace: PowerTrace, column: np.ndarray, to_j, source: str, name: str) -> EnergyCurve | str:
    """A coulomb/energy counter: its value is known at each refresh; knots at the refreshes."""
    ok = ~np.isnan(column)
    if ok.sum() < 2:
        return f"{name} unreadable"
    t, v = trace.t[ok], column[ok]
    change = np.flatnonzero(np.diff(v) != 0) + 1
    if len(change) < 2:
        return f"{name} never changed"
    r = (t[change - 1] + t[change]) / 2.0
    period = float(refreshes(t, v).period_s or np.median(np.diff(r)))
    gap = t[change] - t[change - 1] > 2 * period        # read after a sampling gap: published within one period
    r = np.where(gap, t[change] - period / 2, r)
    knots = np.concatenate([[r[0] - period], r])
    vals = np.concatenate([[v[0]], v[change]])
    drop = vals[:-1] - vals[1:]                          # counter units consumed per interval
    volts, charging = _span_means(trace, knots[:-1], knots[1:])
    de = to_j(drop, volts)
    step = _quantum(drop)
    quantum = abs(float(to_j(step, float(np.median(volts)))))
    cum = np.concatenate([[0.0], np.cumsum(np.diff(trace.t) * (trace.power_w[:-1] + trace.power_w[1:]) / 2)])
    wide = np.abs(np.interp(knots[1:] + period, trace.t, cum) - np.interp(knots[:-1] - period, trace.t, cum))
    bad = ((drop < 0) & ~charging) | (np.abs(de) > JUMP_FACTOR * wide + JUMP_FACTOR * quantum)
    notes = [f"{name} went up without a charger or jumped (reset/recalibration) in {int(bad.sum())} interval(s)"] if bad.any() else []
    detail = f"{name} steps of {step:g} ({quantum:.3g} J) every ~{period:.3g} s, x voltage_now"
    dt = float(np.median(np.diff(t)))
    return EnergyCurve(source, knots, np.concatenate([[0.0], np.cumsum(de)]), period, quantum, 0.0, dt / np.sqrt(12),
                       charging, bad, detail, notes)


def _quantum(drop: np.ndarray) -> float:
    """A counter's step: the gcd of its integer changes (1 uAh on most gauges, 1000 where the gauge
    counts mAh), else the smallest change."""
    nz = np.abs(drop[drop != 0])
    ints = np.rint(nz)
    if len(ints) and np.all(np.abs(nz - ints) < 1e-6) and ints.max() < 2 ** 62:
        return float(np.gcd.reduce(ints.astype(np.int64)))
    return float(nz.min())


def _uah_j(drop: np.ndarray | float, volts: np.ndarray | float) -> np.ndarray:
    return np.asarray(drop) * UAH_TO_C * np.asarray(volts)


def _uwh_j(drop: np.ndarray | float, volts: np.ndarray | float) -> np.ndarray:
    """An energy counter needs no voltage (the argument keeps one signature for both counters)."""
    return np.asarray(drop) * UWH_TO_J * np.ones_like(np.asarray(volts, dtype=float))


def charge_curve(trace: PowerTrace) -> EnergyCurve | str:
    return _counter_curve(trace, trace.charge_counter_uah, _uah_j, "charge_counter", "charge_counter (uAh)")


def energy_counter_curve(trace: PowerTrace) -> EnergyCurve | str:
    return _counter_curve(trace, trace.energy_counter_uwh, _uwh_j, "energy_counter", "energy_counter (uWh)")


def rail_curve(series: RailSeries) -> EnergyCurve | str:
    if len(series) < 2:
        return "fewer than 2 rail snapshots"
    e = series.total_j - series.total_j[0]
    bad = np.zeros(len(series) - 1, bool)
    for k in series.resets:
        bad[k - 1] = True
    quantum = {"hal": 1e-5, "framework": 1e-6, "iio": 1e-6}.get(series.fmt, 1e-5) * len(series.rails)
    period = float(np.median(np.diff(series.t)))
    notes = [f"an ODPM accumulator went down at {len(series.resets)} snapshot(s): counter reset"] if series.resets else []
    detail = f"ODPM rails, sum of {len(series.rails)} ({series.fmt} format), snapshots every ~{period:.3g} s"
    return EnergyCurve("odpm_rails", series.t.copy(), e, period, quantum, 0.0,
                       float(np.mean(series.half_width_s)) / np.sqrt(3), np.zeros(len(series) - 1, bool), bad, detail, notes)


def candidate_curves(trace: PowerTrace | None, rails: RailSeries | None) -> tuple[list[EnergyCurve], list[str]]:
    """Every usable curve, in the order of preference, and why the others are not there."""
    out, why = [], []
    built = [rail_curve(rails) if rails is not None else "no rails.txt (no ODPM, or not sampled)"]
    if trace is not None:
        built += [energy_counter_curve(trace), charge_curve(trace), gauge_curve(trace)]
    for c in built:
        (out if isinstance(c, EnergyCurve) else why).append(c)
    return out, why


def choose_curve(curves: list[EnergyCurve], a: float, b: float, source: str | None = None) -> tuple[EnergyCurve | None, list[str]]:
    """The first curve that covers [a, b] with no reset inside and a fine enough step: a counter's
    step must be under MAX_COUNTER_RESOLUTION of the window's energy or under what one gauge period's
    noise already costs (then the counter is still the better reading). ``source`` forces one
    (e.g. the same counter for every Miro candidate)."""
    notes = []
    if source is not None:
        curves = [c for c in curves if c.source == source]
        if not curves:
            return None, [f"the requested source {source} is not available"]
    rough = next((c for c in curves if c.source in ("current_gauge", "current_samples") and c.covers(a, b)), None)
    allowed = None
    if rough is not None:              # the energy of the gauge periods covering [a, b]: the window's scale
        i = max(int(np.searchsorted(rough.t, a, side="right")) - 1, 0)
        j = min(int(np.searchsorted(rough.t, b, side="left")), len(rough.t) - 1)
        # a gauge whose noise the trace is too short to estimate is not known to be better: keep the counter
        noise = rough.noise_w * rough.period_s if np.isfinite(rough.noise_w) else np.inf
        allowed = max(MAX_COUNTER_RESOLUTION * abs(float(rough.e[j] - rough.e[i])), noise)
    for c in curves:
        if not c.covers(a, b):
            notes.append(f"{c.source}: covers {max(0.0, min(b, c.t[-1]) - max(a, c.t[0])):.2f} of {b - a:.2f} s")
            continue
        if c.bad_in(a, b):
            notes.append(f"{c.source}: a counter reset/jump inside the session")
            continue
        if c is not rough and c.resolution_j and allowed and c.resolution_j > allowed:
            notes.append(f"{c.source}: one step ({c.resolution_j:.3g} J) is coarser than {MAX_COUNTER_RESOLUTION:.0%} of "
                         f"the session's gauge periods and than one period of gauge noise ({allowed:.3g} J)")
            continue
        return c, notes
    return None, notes
