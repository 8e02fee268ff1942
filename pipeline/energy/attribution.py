"""Energy per session, task and phase: a counter's knot energies split over the timeline's segments.

Each knot interval [t_k, t_k+1] of an EnergyCurve has a known energy; the segments it overlaps
share it. A segment whose power is known -- measured over whole intervals inside it, or the idle
baseline for an idle-like segment (outside the session, paused, suspended) -- takes overlap x that
power; segments of unknown power share the remainder by overlap; when all are known the energy is
split in proportion to overlap x power; where the known powers claim more than the interval holds,
it is split by overlap, so no segment is billed negative energy. So a session shorter than one
gauge period, with idle around it, gets the period's energy above idle (the short-session
correction), and every interval's energy lands in exactly one place: the phases sum to the
session, the session to the counter's difference. The error bound (meant to hold in >= 95 % of
sessions: 2.5 sigma) adds the counter's noise on each interval a row shares in, the uncertainty of
the powers that were assumed known, the knots' timing and the counter's step.
"""
from __future__ import annotations

import csv
import math
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.energy.counters import EnergyCurve
from pipeline.energy.timeline import IDLE_LIKE, Group, Segment, Timeline
from pipeline.energy.trace import PowerTrace

Z95 = 2.5                   # the bound is 2.5 sigma: the noise sigma is itself estimated from the trace,
                            # so 2 sigma held in only 95-97 % of simulated sessions (tests/test_energy_counters.py)
PRECISE_PERIODS = 3.0       # a window shorter than this many counter periods is imprecise
PRECISE_REL = 0.10          # ... and so is one whose bound exceeds this share of its energy


@dataclass(frozen=True)
class IdleBaseline:
    """Mean power with nothing of ours running. Battery counters (gauge, charge or energy counter)
    all see the battery; ODPM rails see only their rails: one baseline of each kind."""

    battery_w: float | None
    battery_sigma_w: float          # 1-sigma of the idle power in one counter period (mean + its spread)
    battery_source: str
    rails_w: float | None
    rails_sigma_w: float
    seconds: float

    @property
    def power_w(self) -> float | None:
        """The whole phone's idle power where known (what the report prints), else the rails'."""
        return self.battery_w if self.battery_w is not None else self.rails_w

    def for_curve(self, curve: EnergyCurve) -> tuple[float, float] | None:
        """(power, 1-sigma) comparable with ``curve``'s energies, or None."""
        if curve.source == "odpm_rails":
            return None if self.rails_w is None else (self.rails_w, self.rails_sigma_w)
        return None if self.battery_w is None else (self.battery_w, self.battery_sigma_w)


@dataclass
class EnergyRow:
    """One line of energy.csv."""

    kind: str                 # "session" | "task" | "phase" | "estimate" (see swap_estimates)
    name: str
    session_id: str
    task: int | None
    phase: str | None
    t0: float
    t1: float
    duration_s: float
    energy_j: float | None
    mean_power_w: float | None
    idle_w: float | None
    above_idle_j: float | None
    train_samples: int
    j_per_sample: float | None
    charging_samples: int
    simulated: bool
    source: str = ""          # the counter the figure comes from (counters.SOURCES)
    resolution_s: float | None = None     # the counter's period: where in time energy can be placed
    resolution_j: float | None = None     # one counter step
    error_j: float | None = None          # 95 % bound on |energy - truth|
    precise: bool = False     # long enough for the counter and within PRECISE_REL: fit to tune on
    note: str = ""


@dataclass
class Allocation:
    """Per segment: energy, and what its error depends on."""

    energy: np.ndarray                     # J per segment
    noise_share: list[dict[int, float]]    # per interval: segment -> share of that interval's noise
    sens: list[dict[int, float]]           # per segment: known-power segment -> d energy / d its power
    power_sigma: dict[int, float]          # known-power segment -> 1-sigma of its assumed power
    touched: list[list[int]]               # per segment: the intervals it overlaps


def _pairs(curve: EnergyCurve, segs: list[Segment]) -> list[list[tuple[int, float]]]:
    """Per interval: (segment, overlap seconds) for the segments it overlaps (both lists sorted)."""
    out: list[list[tuple[int, float]]] = [[] for _ in range(len(curve.t) - 1)]
    j0 = 0
    for i, (a, b) in enumerate(zip(curve.t[:-1], curve.t[1:])):
        while j0 < len(segs) and segs[j0].t1 <= a:
            j0 += 1
        j = j0
        while j < len(segs) and segs[j].t0 < b:
            o = min(b, segs[j].t1) - max(a, segs[j].t0)
            if o > 1e-12:
                out[i].append((j, o))
            j += 1
    return out


def allocate(curve: EnergyCurve, segs: list[Segment], idle: tuple[float, float] | None) -> Allocation:
    """Split every interval's energy over the segments it overlaps (module docstring); ``idle`` is
    the (power, 1-sigma) assumed for idle-like segments too short to measure themselves."""
    de, length = curve.de, curve.length
    pairs = _pairs(curve, segs)
    inside: list[list[int]] = [[] for _ in segs]          # intervals wholly inside each segment
    for i, ps in enumerate(pairs):
        if len(ps) == 1 and ps[0][1] >= length[i] * (1 - 1e-9):
            inside[ps[0][0]].append(i)
    known: dict[int, float] = {}
    sigma: dict[int, float] = {}
    noise = curve.noise_w if math.isfinite(curve.noise_w) else 0.0
    for j, s in enumerate(segs):
        if inside[j]:
            known[j], sigma[j] = segment_power(de[inside[j]], length[inside[j]], noise)
        elif s.kind in IDLE_LIKE and idle is not None:
            known[j], sigma[j] = idle
    energy = np.zeros(len(segs))
    shares: list[dict[int, float]] = []
    sens: list[dict[int, float]] = [dict() for _ in segs]
    touched: list[list[int]] = [[] for _ in segs]
    for i, ps in enumerate(pairs):
        share: dict[int, float] = {}
        for j, _ in ps:
            touched[j].append(i)
        if len(ps) == 1:
            energy[ps[0][0]] += de[i]
            share[ps[0][0]] = 1.0
        elif ps:
            unknown = [(j, o) for j, o in ps if j not in known]
            rest = de[i] - sum(o * known[j] for j, o in ps if j in known)
            if not unknown or rest < 0:
                # all powers known, or the known ones claim more than the interval holds (they were
                # measured where the phone drew more): split by overlap x power, or by overlap
                w = {j: o * known[j] for j, o in ps} if not unknown else {j: o for j, o in ps}
                total = sum(w.values())
                if total <= 0:
                    w, total = {j: o for j, o in ps}, sum(o for _, o in ps)
                for j, _ in ps:
                    energy[j] += de[i] * w[j] / total
                    share[j] = w[j] / total
            else:
                u_total = sum(o for _, o in unknown)
                for j, o in ps:
                    if j in known:
                        energy[j] += o * known[j]
                        sens[j][j] = sens[j].get(j, 0.0) + o
                        for u, ou in unknown:
                            sens[u][j] = sens[u].get(j, 0.0) - o * ou / u_total
                for u, ou in unknown:
                    energy[u] += rest * ou / u_total
                    share[u] = ou / u_total
        shares.append(share)
    return Allocation(energy, shares, sens, sigma, touched)


def segment_power(de: np.ndarray, length: np.ndarray, noise: float) -> tuple[float, float]:
    """A segment's power from the intervals wholly inside it, and the 1-sigma of that power in
    another interval (a prediction): the mean's noise plus how much the power itself varies there
    beyond the counter's noise; with one interval that spread is unknown and taken as half the power."""
    p = de / length
    mean = float(de.sum() / length.sum())
    mean_var = noise ** 2 * float((length ** 2).sum()) / float(length.sum()) ** 2
    spread = max(float(np.var(p, ddof=1)) - noise ** 2, 0.0) if len(p) > 1 else (0.5 * mean) ** 2
    return mean, math.sqrt(mean_var + spread * (1 + 1 / len(p)))


def row_error(curve: EnergyCurve, alloc: Allocation, members: list[int]) -> float:
    """95 % bound of the summed energy of ``members`` (segment indices)."""
    mset = set(members)
    noise = curve.noise_w
    if not math.isfinite(noise):
        return float("nan")
    intervals = sorted({i for j in members for i in alloc.touched[j]})
    length, de = curve.length, curve.de
    var = 0.0
    for i in intervals:
        g = sum(v for j, v in alloc.noise_share[i].items() if j in mset)
        var += (g * noise * length[i]) ** 2
    dep: dict[int, float] = {}
    for j in members:
        for k, d in alloc.sens[j].items():
            dep[k] = dep.get(k, 0.0) + d
    var += sum((alloc.power_sigma.get(k, 0.0) * d) ** 2 for k, d in dep.items())
    if intervals:
        power = de / np.where(length > 0, length, 1.0)
        for edge in (intervals[0], intervals[-1] + 1):
            left = power[edge - 1] if edge - 1 >= 0 else 0.0
            right = power[edge] if edge < len(power) else 0.0
            var += ((left - right) * curve.timing_sigma_s) ** 2
        var += 2 * curve.resolution_j ** 2 / 12
    return Z95 * math.sqrt(var)


def _train_samples(events: list[dict[str, Any]], g: Group, clock) -> int:
    """Training samples of ``epoch`` events stamped inside a training/profiling phase, task or session."""
    if g.kind == "phase" and g.name not in ("training", "profiling"):
        return 0
    n = 0
    for e in events:
        if e.get("type") == "epoch" and g.t0 - 1e-6 <= clock(float(e["t"])) <= g.t1 + 1e-6:
            if g.task is None or e.get("task") is None or int(e["task"]) == g.task:
                n += int(e.get("n_samples", 0))
    return n


def group_members(tl: Timeline, offset: int = 0) -> list[list[int]]:
    """Per group: the indices (plus ``offset``) of the segments it sums."""
    out: list[list[int]] = []
    for g_idx, g in enumerate(tl.groups):
        if g.kind == "phase":
            out.append([k + offset for k, s in enumerate(tl.segments) if s.group == g_idx])
        elif g.kind == "task":
            out.append([k + offset for k, s in enumerate(tl.segments) if s.task == g.task])
        else:
            out.append([k + offset for k in range(len(tl.segments))])
    return out


def build_rows(tl: Timeline, curve: EnergyCurve | None, trace: PowerTrace | None, events: list[dict[str, Any]],
               *, idle: IdleBaseline | None, allow_charging: bool, clock, source_note: str = "",
               simulated: bool = False) -> list[EnergyRow]:
    """One EnergyRow per group of ``tl`` (phases, tasks, the session), then swap estimates."""
    segs = list(tl.segments)
    offset = 0
    if curve is not None:
        before = [Segment("before", float(curve.t[0]), tl.start, None, -1)] if curve.t[0] < tl.start else []
        after = [Segment("after", tl.end, float(curve.t[-1]), None, -1)] if curve.t[-1] > tl.end else []
        offset = len(before)
        segs = before + segs + after
        alloc = allocate(curve, segs, idle.for_curve(curve) if idle is not None else None)
    rows = []
    for g, members in zip(tl.groups, group_members(tl, offset)):
        dur = sum(segs[m].t1 - segs[m].t0 for m in members) if members else max(g.t1 - g.t0, 0.0)
        notes = list(g.notes)
        energy = err = None
        charging = 0
        lo, hi = (min(segs[m].t0 for m in members), max(segs[m].t1 for m in members)) if members else (g.t0, g.t1)
        if curve is None:
            notes.append(source_note or "no power trace")
        elif not curve.covers(lo, hi):
            cov = max(0.0, min(hi, curve.t[-1]) - max(lo, curve.t[0]))
            notes.append(f"power trace covers {cov:.2f} of {hi - lo:.2f} s"
                         + (" (the counter had not reported the end: sample past the session's end)" if hi > curve.t[-1] else ""))
        else:
            ivs = sorted({i for m in members for i in alloc.touched[m]})
            charging = trace.charging_between(curve.t[ivs[0]], curve.t[ivs[-1] + 1]) if (trace is not None and ivs) else 0
            if ivs and curve.bad[ivs].any():
                notes.append(f"{curve.source} unusable over {int(curve.bad[ivs].sum())} of its intervals here "
                             "(a counter reset, or the sampler did not run)")
            elif ivs and curve.charging[ivs].any() and not allow_charging:
                notes.append(f"refused: {charging} charging sample(s) (battery counters measure the charger)")
            else:
                energy = float(sum(alloc.energy[m] for m in members))
                err = row_error(curve, alloc, members)
        precise = bool(energy is not None and curve is not None and dur >= PRECISE_PERIODS * curve.period_s
                       and err is not None and math.isfinite(err) and err <= PRECISE_REL * max(abs(energy), 1e-12))
        if energy is not None and curve is not None and dur < PRECISE_PERIODS * curve.period_s:
            notes.append(f"shorter than {PRECISE_PERIODS:g} counter periods ({curve.period_s:.2f} s): imprecise")
        base = idle.for_curve(curve) if idle is not None and curve is not None else None
        idle_w = None if base is None else base[0]
        n = _train_samples(events, g, clock)
        phase = g.name if g.kind == "phase" else None
        rows.append(EnergyRow(
            kind=g.kind, name=g.name, session_id=tl.session_id, task=g.task, phase=phase,
            t0=round(g.t0, 6), t1=round(g.t1, 6), duration_s=dur, energy_j=energy,
            mean_power_w=None if energy is None or dur <= 0 else energy / dur, idle_w=idle_w,
            above_idle_j=None if energy is None or idle_w is None else energy - idle_w * dur,
            train_samples=n, j_per_sample=energy / n if energy is not None and n else None,
            charging_samples=int(charging), simulated=simulated, source=curve.source if curve is not None else "",
            resolution_s=None if curve is None else curve.period_s,
            resolution_j=None if curve is None else curve.resolution_j,
            error_j=None if err is None or not math.isfinite(err) else err, precise=precise,
            note="; ".join(notes)))
    return rows + swap_estimates(rows, events, clock)


def swap_estimates(rows: list[EnergyRow], events: list[dict[str, Any]], clock=float) -> list[EnergyRow]:
    """The runner swaps replay samples between training steps and reports only the time (``swap``
    events with ``seconds``), so swapping energy is ESTIMATED as that time x the mean power of the
    training phase around it: one row per phase, kind "estimate" (not an interval; already inside
    that phase's energy)."""
    if any(r.kind == "phase" and r.phase == "swapping" for r in rows):
        return []
    per_host: dict[int, tuple[EnergyRow, float, float, float]] = {}
    for e in events:
        secs = float(e.get("seconds") or 0.0)
        if e.get("type") != "swap" or secs <= 0:
            continue
        t = clock(float(e["t"]))
        k, host = next(((k, r) for k, r in enumerate(rows) if r.kind == "phase" and r.phase in ("training", "profiling")
                        and r.t0 <= t <= r.t1 + 1e-6 and (r.task is None or e.get("task") in (None, r.task))),
                       (None, None))
        if host is None or host.mean_power_w is None:
            continue
        _, total, first, last = per_host.get(k, (host, 0.0, t - secs, t))
        per_host[k] = (host, total + secs, min(first, t - secs), max(last, t))
    out = []
    for host, secs, first, last in per_host.values():
        energy = secs * host.mean_power_w
        out.append(EnergyRow(
            kind="estimate", name="swapping", session_id=host.session_id, task=host.task, phase="swapping",
            t0=round(first, 6), t1=round(last, 6), duration_s=secs, energy_j=energy,
            mean_power_w=host.mean_power_w, idle_w=host.idle_w,
            above_idle_j=None if host.idle_w is None else energy - host.idle_w * secs, train_samples=0,
            j_per_sample=None, charging_samples=0, simulated=host.simulated, source=host.source,
            resolution_s=host.resolution_s, resolution_j=host.resolution_j, error_j=None, precise=False,
            note=f"estimated: {secs:.3f} s of swaps x mean power of its {host.phase} phase; included in that phase"))
    return out


def phase_totals(rows: list[EnergyRow]) -> dict[str, float]:
    """Joules per phase type over all tasks (rows refused for charging are left out)."""
    out: dict[str, float] = {}
    for r in rows:
        if r.kind in ("phase", "estimate") and r.energy_j is not None:
            key = (r.phase or r.name) + (" (estimated, part of training)" if r.kind == "estimate" else "")
            out[key] = out.get(key, 0.0) + r.energy_j
    return out


ENERGY_CSV_COLUMNS = [f.name for f in fields(EnergyRow)]


def write_energy_csv(rows: list[EnergyRow], path: str | Path) -> Path:
    """energy.csv, written to a temp file then renamed (never half-written)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=ENERGY_CSV_COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in asdict(r).items()})
    os.replace(tmp, path)
    return path
