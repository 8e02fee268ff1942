"""Energy per session, task, phase and training sample, from events.jsonl and a PowerTrace.

Events and power.csv are stamped with the same device CLOCK_MONOTONIC (docs/contracts.md), so a
phase's energy is the integral of the trace between its ``phase_start`` and ``phase_end``. The
idle baseline is reported beside each figure (``above_idle_j``), never silently subtracted.
"""
from __future__ import annotations

import csv
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Iterable

from pipeline.energy.trace import PowerTrace
from pipeline.errors import PowerError

PHASES = ("training", "evaluation", "swapping", "profiling", "idle")


@dataclass(frozen=True)
class Interval:
    kind: str                 # "session" | "task" | "phase"
    name: str
    t0: float
    t1: float
    session_id: str = ""
    task: int | None = None
    phase: str | None = None
    closed: bool = True       # False: no end event (session died or still running); ends at the last event


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
    note: str = ""


def intervals_from_events(events: Iterable[dict[str, Any]], session_id: str = "") -> list[Interval]:
    """Session, task and phase intervals. Unclosed ones end at the last event (marked ``closed=False``)."""
    evs = sorted(events, key=lambda e: e.get("seq", 0))
    if not evs:
        return []
    last_t = float(evs[-1]["t"])
    out: list[Interval] = []
    session: tuple[float, str] | None = None
    tasks: dict[int, float] = {}
    phases: dict[tuple[str, Any], float] = {}
    for e in evs:
        typ, t = e.get("type"), float(e["t"])
        if typ == "session_start":
            session = (t, str(e.get("session_id", session_id)))
        elif typ == "session_end" and session is not None:
            out.append(Interval("session", session[1], session[0], t, session[1]))
            session = None
        elif typ == "task_start":
            tasks[int(e["task"])] = t
        elif typ == "task_end" and int(e["task"]) in tasks:
            k = int(e["task"])
            out.append(Interval("task", f"task {k + 1}", tasks.pop(k), t, session_id, task=k))
        elif typ == "phase_start":
            phases[(str(e["phase"]), e.get("task"))] = t
        elif typ == "phase_end":
            key = (str(e["phase"]), e.get("task"))
            if key in phases:
                task = int(key[1]) if key[1] is not None else None
                out.append(Interval("phase", key[0], phases.pop(key), t, session_id, task=task, phase=key[0]))
    for (phase, task), t0 in phases.items():
        out.append(Interval("phase", phase, t0, last_t, session_id, int(task) if task is not None else None,
                            phase, closed=False))
    for k, t0 in tasks.items():
        out.append(Interval("task", f"task {k + 1}", t0, last_t, session_id, task=k, closed=False))
    if session is not None:
        out.append(Interval("session", session[1], session[0], last_t, session[1], closed=False))
    sid = next((i.session_id for i in out if i.kind == "session"), session_id)
    out = [Interval(i.kind, i.name, i.t0, i.t1, sid, i.task, i.phase, i.closed) for i in out]
    order = {"session": 0, "task": 1, "phase": 2}
    return sorted(out, key=lambda i: (i.t0, order[i.kind]))


def _train_samples(events: list[dict[str, Any]], iv: Interval) -> int:
    """Training samples seen in the interval: ``epoch`` events (n_samples) stamped inside it."""
    if iv.kind == "phase" and iv.phase != "training":
        return 0
    n = 0
    for e in events:
        if e.get("type") == "epoch" and iv.t0 <= float(e["t"]) <= iv.t1 + 1e-6:
            if iv.task is None or e.get("task") is None or int(e["task"]) == iv.task:
                n += int(e.get("n_samples", 0))
    return n


def attribute_energy(trace: PowerTrace, events: list[dict[str, Any]], *, idle_w: float | None = None,
                     allow_charging: bool = False, session_id: str = "",
                     runner_window: tuple[float, float] | None = None, lag_s: float = 0.0) -> list[EnergyRow]:
    """One EnergyRow per session, task and phase interval found in ``events``. ``runner_window`` is
    result.json's (t_start, t_end): the runner's whole life, model and data loading included, which
    is the session window the experiment and Miro report; without it the session row spans
    session_start..session_end. ``lag_s`` shifts every window later by the counters' reporting
    delay: a gauge that publishes the average of its last refresh period p and holds it for p reports
    power about p seconds late (``trace.gauge.update_s`` estimates p); 0 leaves windows as stamped."""
    if trace.clock != "CLOCK_MONOTONIC":
        raise PowerError(f"power trace {trace.source} is on {trace.clock}, events on CLOCK_MONOTONIC: "
                         "they cannot be aligned (the shell-only sampler suits standalone traces only)")
    rows = []
    t_lo, t_hi = float(trace.t[0]), float(trace.t[-1])
    for iv in intervals_from_events(events, session_id):
        notes = [] if iv.closed else ["no end event: cut at the last event"]
        if iv.kind == "session" and runner_window is not None:
            iv = Interval(iv.kind, iv.name, min(iv.t0, runner_window[0]), max(iv.t1, runner_window[1]),
                          iv.session_id, closed=True)
            notes = ["runner start to end (incl. loading)"]
        dur = iv.t1 - iv.t0
        w0, w1 = iv.t0 + lag_s, iv.t1 + lag_s            # the integration window (stamps stay as they were)
        if lag_s:
            notes.append(f"integrated {lag_s:.2f} s later for the counters' reporting lag")
        energy = mean = above = None
        n_charging = trace.charging_between(w0, w1) if w1 > t_lo and w0 < t_hi else 0
        covered = min(w1, t_hi) - max(w0, t_lo)
        if covered <= 0 or covered < 0.98 * dur:
            notes.append(f"power trace covers {max(covered, 0):.2f} of {dur:.2f} s")
        else:
            try:
                energy = trace.energy_j(w0, w1, allow_charging=allow_charging)
                mean = energy / dur if dur > 0 else None
                above = energy - idle_w * dur if idle_w is not None else None
            except PowerError:
                notes.append(f"refused: {n_charging} charging sample(s)")
            if trace.gauge and trace.gauge.update_s and dur < 2 * trace.gauge.update_s:
                notes.append(f"shorter than 2 fuel-gauge refreshes ({trace.gauge.update_s:.1f} s): rough")
        n = _train_samples(events, iv)
        rows.append(EnergyRow(
            kind=iv.kind, name=iv.name, session_id=iv.session_id, task=iv.task, phase=iv.phase,
            t0=round(iv.t0, 6), t1=round(iv.t1, 6), duration_s=round(dur, 6),
            energy_j=None if energy is None else round(energy, 6),
            mean_power_w=None if mean is None else round(mean, 6),
            idle_w=None if idle_w is None else round(idle_w, 6),
            above_idle_j=None if above is None else round(above, 6), train_samples=n,
            j_per_sample=round(energy / n, 9) if energy is not None and n else None,
            charging_samples=n_charging, simulated=trace.simulated, note="; ".join(notes)))
    if not any(r.kind == "phase" and r.phase == "swapping" for r in rows):
        rows += swap_estimates(rows, events)
    return rows


def swap_estimates(rows: list[EnergyRow], events: list[dict[str, Any]]) -> list[EnergyRow]:
    """The runner swaps replay samples between training steps and reports only the time (``swap``
    events with ``seconds``), so swapping energy is ESTIMATED as that time x the mean power of the
    training phase around it: one row per phase, kind "estimate" (not an interval; already inside
    that phase's energy)."""
    per_host: dict[int, tuple[EnergyRow, float, float, float]] = {}
    for e in events:
        secs = float(e.get("seconds") or 0.0)
        if e.get("type") != "swap" or secs <= 0:
            continue
        t = float(e["t"])
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
            t0=round(first, 6), t1=round(last, 6), duration_s=round(secs, 6), energy_j=round(energy, 6),
            mean_power_w=host.mean_power_w, idle_w=host.idle_w,
            above_idle_j=None if host.idle_w is None else round(energy - host.idle_w * secs, 6), train_samples=0,
            j_per_sample=None, charging_samples=0, simulated=host.simulated,
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
