"""When did a fuel gauge publish? Refresh instants and period from a sampled counter column.

A gauge holds each reading until its next refresh, so a sampled column repeats values; a refresh
is seen at the first sample that differs from the one before, and happened somewhere between those
two samples (the midpoint is the estimate, +-half a sample). A gauge that refreshes on a fixed
period (a timer in the gauge driver) is fitted with a regular grid ``r_k = a + k*T``, which removes
that +-half-sample jitter from every refresh; an irregular one keeps the midpoints. Refreshes that
did not change the value (the same average twice) are invisible; long runs are filled with
implied refreshes spaced by the period, so each published value still covers one period.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GRID_MAX_RESIDUAL = 0.75        # of one sample interval: midpoints this close to a grid make it regular
FAST_FACTOR = 1.5               # a period under this many sample intervals: the gauge is as fast as we sample


@dataclass(frozen=True)
class Refreshes:
    """Refresh instants of one counter column (trace clock) and what they say about the gauge."""

    times: np.ndarray             # refresh instants, increasing (observed and implied)
    sample_index: np.ndarray      # per refresh: the first sample showing the value published then
    period_s: float | None        # typical refresh period; None with fewer than 2 changes
    sample_dt: float              # median sampling interval
    regular: bool                 # fitted on a fixed-period grid
    timing_sigma_s: float         # 1-sigma error of one refresh instant
    observed: int                 # refreshes seen as a change of value

    @property
    def fast(self) -> bool:
        """The gauge refreshes about as often as we sample: samples are as good as instantaneous."""
        return self.period_s is None or self.period_s <= FAST_FACTOR * self.sample_dt


def _changes(values: np.ndarray) -> np.ndarray:
    """Indices of samples whose value differs from the previous sample (NaN equals NaN)."""
    a, b = values[1:], values[:-1]
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    return np.flatnonzero(~same) + 1


def period_of(intervals: np.ndarray) -> float | None:
    """Typical refresh period from intervals between observed changes. Constant stretches make
    intervals that are whole multiples of the period, so the period is the median of the shortest
    cluster (intervals near the 20th percentile), not of all intervals."""
    if len(intervals) == 0:
        return None
    q = float(np.percentile(intervals, 20))
    near = intervals[(intervals >= 0.5 * q) & (intervals <= 1.5 * q)]
    return float(np.median(near)) if len(near) else q


def refreshes(t: np.ndarray, values: np.ndarray) -> Refreshes:
    """Refresh instants of ``values`` sampled at ``t``."""
    dt = float(np.median(np.diff(t))) if len(t) > 1 else 0.0
    idx = _changes(values)
    mids = (t[idx - 1] + t[idx]) / 2.0
    if len(idx) < 2:
        return Refreshes(mids, idx, None, dt, False, dt / np.sqrt(12), len(idx))
    period = period_of(np.diff(mids))
    if period is None or period <= FAST_FACTOR * dt:
        return Refreshes(mids, idx, period, dt, False, dt / np.sqrt(12), len(idx))
    k = np.rint((mids - mids[0]) / period).astype(int)
    regular = False
    times, owner = mids, idx
    if len(idx) >= 3 and np.all(np.diff(k) > 0):
        slope, icpt = np.polyfit(k.astype(float), mids, 1)
        resid = mids - (icpt + slope * k)
        if np.max(np.abs(resid)) <= GRID_MAX_RESIDUAL * dt:
            regular = True
            grid_k = np.arange(k[0], k[-1] + 1)
            times = icpt + slope * grid_k
            owner = idx[np.searchsorted(k, grid_k, side="right") - 1]     # value held since the last change
            period = float(slope)
            sigma = float(np.std(resid) / np.sqrt(max(len(idx) - 2, 1))) + 1e-9
    if not regular:
        times, owner = _fill_gaps(mids, idx, period)
        sigma = dt / np.sqrt(12)
    times, owner = _extend(np.asarray(times, float), np.asarray(owner, int), period, float(t[0]), float(t[-1]) - dt)
    return Refreshes(times, owner, period, dt, regular, sigma, len(idx))


def _extend(times: np.ndarray, owner: np.ndarray, period: float, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """Implied refreshes (unchanged value) before the first and after the last change, as far as
    the samples would have shown a change: a constant stretch still covers its periods."""
    n_back = max(int(np.floor((times[0] - lo) / period)), 0)
    n_fwd = max(int(np.floor((hi - times[-1]) / period)), 0)
    back = times[0] - period * np.arange(n_back, 0, -1)
    fwd = times[-1] + period * np.arange(1, n_fwd + 1)
    return (np.concatenate([back, times, fwd]),
            np.concatenate([np.zeros(n_back, int), owner, np.full(n_fwd, owner[-1], int)]))


def _fill_gaps(mids: np.ndarray, idx: np.ndarray, period: float) -> tuple[np.ndarray, np.ndarray]:
    """Implied refreshes inside runs longer than 1.5 periods, evenly spaced."""
    times, owner = [float(mids[0])], [int(idx[0])]
    for a, b, i_a, i_b in zip(mids[:-1], mids[1:], idx[:-1], idx[1:]):
        n = max(int(round((b - a) / period)), 1)
        for j in range(1, n):
            times.append(float(a + (b - a) * j / n))
            owner.append(int(i_a))
        times.append(float(b))
        owner.append(int(i_b))
    return np.array(times), np.array(owner)


def noise_sigma(values: np.ndarray) -> float:
    """Robust 1-sigma noise of successive published values (MAD of first differences / sqrt 2):
    steps between phases are outliers to it, the gauge's reading noise is not."""
    v = values[np.isfinite(values)]
    if len(v) < 6:
        return float("nan")
    d = np.diff(v)
    return float(1.4826 * np.median(np.abs(d - np.median(d))) / np.sqrt(2))
