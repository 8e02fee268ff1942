"""The one call for a session's energy: ``measure_session(folder, profile)``.

The experiment summary, the report and Miro read the same figures from it: the best counter the
phone has (counters.py), on the device's own clock (clock.py), cut into loading / phases / pauses
/ relaunches (timeline.py), each with its source, resolution, 95 % bound and a ``precise`` flag
(attribution.py). ``idle_baseline`` reads the idle trace measured before a run the same way.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.events import read_events
from pipeline.energy.attribution import EnergyRow, IdleBaseline, segment_power, build_rows
from pipeline.energy.clock import ClockMap, event_clock
from pipeline.energy.counters import MAX_COUNTER_RESOLUTION, EnergyCurve, candidate_curves, choose_curve
from pipeline.energy.loading import load_trace
from pipeline.energy.rails import RailSeries, read_rails_log
from pipeline.energy.timeline import Timeline, build_timeline
from pipeline.energy.trace import PowerTrace
from pipeline.errors import PowerError

POWER_CSV, RAILS_TXT, EVENTS, RESULT = "power.csv", "rails.txt", "events.jsonl", "result.json"


@dataclass
class SessionEnergy:
    session_id: str
    rows: list[EnergyRow]
    trace: PowerTrace | None
    rails: RailSeries | None
    curve: EnergyCurve | None
    timeline: Timeline | None
    notes: list[str] = field(default_factory=list)
    error: str | None = None              # why there are no energies at all

    @property
    def session(self) -> EnergyRow | None:
        return next((r for r in self.rows if r.kind == "session"), None)

    def phase_energy_j(self, name: str) -> float:
        """Joules billed to phase rows named ``name`` (e.g. "loading", "profiling")."""
        return float(sum(r.energy_j for r in self.rows if r.kind == "phase" and r.name == name and r.energy_j is not None))

    def summary(self) -> dict[str, Any]:
        """What summary.json and miro.json record per session: the figure, how good it is, from what."""
        s = self.session
        out: dict[str, Any] = {"energy_j": None, "error_j": None, "precise": False, "source": None,
                               "resolution_s": None, "note": self.error or ""}
        if s is not None:
            out.update(energy_j=s.energy_j, error_j=s.error_j, precise=s.precise, source=s.source or None,
                       resolution_s=s.resolution_s, duration_s=s.duration_s, note=s.note)
            out["phases_j"] = {n: round(self.phase_energy_j(n), 6) for n in sorted({r.name for r in self.rows if r.kind == "phase"})}
            out["paused_s"] = round(sum(r.duration_s for r in self.rows if r.kind == "phase" and r.name == "paused"), 3)
        return out


def _read_json(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise PowerError(f"{path}: unreadable ({exc})") from exc
    return data if isinstance(data, dict) else {}


def measure_events(trace: PowerTrace | None, rails: RailSeries | None, events: list[dict[str, Any]],
                   result: dict[str, Any] | None = None, *, idle: IdleBaseline | None = None,
                   allow_charging: bool = False, session_id: str = "", simulated: bool | None = None,
                   source: str | None = None) -> SessionEnergy:
    """Energies of one session from its parsed files (measure_session reads them)."""
    sim = bool(trace.simulated if trace is not None and simulated is None else simulated)
    clock_name = trace.clock if trace is not None else (rails.clock if rails is not None else "CLOCK_MONOTONIC")
    clock: ClockMap = event_clock(events, clock_name)
    tl = build_timeline(events, clock, result, session_id, None if trace is None else trace.t)
    if tl is None:
        return SessionEnergy(session_id, [], trace, rails, None, None, [], "no events")
    curves, why = candidate_curves(trace, rails)
    curve, notes = choose_curve(curves, tl.start, tl.end, source)
    if curve is None and source is None:
        fallback = next((c for c in curves if c.source in ("current_gauge", "current_samples")), None)
        curve = fallback
        notes.append("no counter covers the whole session" + ("" if fallback is None else f"; rows use {fallback.source}"))
    notes = why + notes + tl.notes + (curve.notes if curve is not None else [])
    rows = build_rows(tl, curve, trace, events, idle=idle, allow_charging=allow_charging, clock=clock,
                      source_note="; ".join(why) or "no power trace", simulated=sim)
    session = next(r for r in rows if r.kind == "session")
    if curve is not None:
        session.note = "; ".join([session.note, curve.detail] if session.note else [curve.detail])
    return SessionEnergy(tl.session_id, rows, trace, rails, curve, tl, notes)


def measure_session(folder: str | Path, profile: Any = None, *, idle: IdleBaseline | None = None,
                    allow_charging: bool = False, simulated: bool | None = None,
                    source: str | None = None) -> SessionEnergy:
    """Energy per session/task/phase of a pulled session folder (events.jsonl, result.json,
    power.csv, rails.txt). Never raises for a missing or unusable trace: ``error`` and the rows'
    notes say why; raises PowerError only for files that are there but malformed. ``source``
    forces one counter (counters.SOURCES), e.g. to compare Miro's candidates on the same one."""
    folder = Path(folder)
    events = read_events(str(folder / EVENTS))[0] if (folder / EVENTS).exists() else []
    result = _read_json(folder / RESULT)
    trace = load_trace(folder / POWER_CSV, profile, simulated=simulated) if (folder / POWER_CSV).exists() else None
    rails = read_rails_log(folder / RAILS_TXT) if (folder / RAILS_TXT).exists() else None
    if trace is None and rails is None:
        m = measure_events(None, None, events, result, idle=idle, allow_charging=allow_charging,
                           session_id=folder.name, simulated=simulated)
        m.error = "no power.csv (sampler not run for this session)"
        return m
    return measure_events(trace, rails, events, result, idle=idle, allow_charging=allow_charging,
                          session_id=folder.name, simulated=simulated, source=source)


def _mean_power(c: EnergyCurve) -> tuple[float, float, float]:
    """(mean W, 1-sigma of the idle power in one period, seconds) over the curve, charging intervals
    left out for battery counters (the same estimate as a segment's known power in attribution)."""
    use = ~c.charging if c.source != "odpm_rails" else np.ones(len(c.de), bool)
    if not use.any():
        raise PowerError("idle trace: every sample was taken while charging (no battery baseline)")
    noise = c.noise_w if math.isfinite(c.noise_w) else 0.0
    mean, sigma = segment_power(c.de[use], c.length[use], noise)
    return mean, sigma, float(c.length[use].sum())


def idle_from(trace: PowerTrace | None, rails: RailSeries | None) -> IdleBaseline:
    """Idle power from an idle trace: the best battery counter and, where sampled, the rails."""
    curves, why = candidate_curves(trace, rails)
    rough = next((c for c in curves if c.source in ("current_gauge", "current_samples")), None)
    total = abs(float(rough.e[-1] - rough.e[0])) if rough is not None else 0.0
    fine = [c for c in curves if not c.bad.any()
            and not (c.resolution_j and total and c.resolution_j > MAX_COUNTER_RESOLUTION * total)]
    battery = next((c for c in fine if c.source != "odpm_rails"), None)
    rail = next((c for c in fine if c.source == "odpm_rails"), None)
    if battery is None and rail is None:
        raise PowerError("idle trace: no usable counter (" + ("; ".join(why) or "resets, or steps too coarse") + ")")
    b = _mean_power(battery) if battery is not None else (None, 0.0, 0.0)
    r = _mean_power(rail) if rail is not None else (None, 0.0, 0.0)
    return IdleBaseline(b[0], b[1], battery.source if battery is not None else "", r[0], r[1], max(b[2], r[2]))


def idle_baseline(folder: str | Path, profile: Any = None, simulated: bool | None = None) -> IdleBaseline:
    """The idle baseline of ``folder`` (power.csv and, where sampled, rails.txt); PowerError if unusable."""
    folder = Path(folder)
    trace = load_trace(folder / POWER_CSV, profile, simulated=simulated) if (folder / POWER_CSV).exists() else None
    rails = read_rails_log(folder / RAILS_TXT) if (folder / RAILS_TXT).exists() else None
    return idle_from(trace, rails)
