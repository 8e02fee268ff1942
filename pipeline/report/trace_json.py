"""Chrome/Perfetto trace-event JSON of a run: power as a counter track, sessions/tasks/phases as slices.

Format: the Trace Event Format (JSON object with ``traceEvents``), which ui.perfetto.dev and
chrome://tracing open. ``ph`` "M" names the process and threads, "X" complete events are slices
(``ts``/``dur`` in microseconds), "C" counter events carry the power in ``args``. Slices on one
thread must nest; phases that partly overlap go to a second lane. ``validate_trace_events`` checks
all of that, so a file that would not open is caught in a test, not by a user.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from android_harness.device.fileio import write_text_atomic
from pipeline.energy import PowerTrace
from pipeline.energy.timeline import event_groups
from pipeline.report.results import ResultsData

PID = 1
TID_SESSIONS, TID_TASKS, TID_PHASES = 1, 2, 3
COUNTER = "battery power"           # one series, "W": Perfetto names the track "battery power W"
METADATA_NAMES = {"process_name", "thread_name", "process_sort_index", "thread_sort_index", "process_labels"}


def _us(t: float, origin: float) -> float:
    return round((t - origin) * 1e6, 3)


def _meta(name: str, tid: int, value: Any, key: str = "name") -> dict[str, Any]:
    return {"name": name, "ph": "M", "pid": PID, "tid": tid, "args": {key: value}}


def _lanes(slices: list[tuple[float, float, dict[str, Any]]], first_tid: int) -> list[tuple[int, float, float, dict]]:
    """Put slices on the fewest lanes such that slices in one lane nest or are disjoint."""
    lanes: list[list[tuple[float, float]]] = []
    out = []
    for t0, t1, ev in sorted(slices, key=lambda s: (s[0], -(s[1] - s[0]))):
        for k, stack in enumerate(lanes):
            while stack and stack[-1][1] <= t0:
                stack.pop()
            if not stack or t1 <= stack[-1][1]:
                stack.append((t0, t1))
                out.append((first_tid + 10 * k, t0, t1, ev))
                break
        else:
            lanes.append([(t0, t1)])
            out.append((first_tid + 10 * (len(lanes) - 1), t0, t1, ev))
    return out


def counter_events(trace: PowerTrace, origin: float) -> list[dict[str, Any]]:
    """The power counter track (and a "charging" track where the phone charged)."""
    label = " (simulated)" if trace.simulated else ""
    out: list[dict[str, Any]] = []
    for t, p, ch in zip(trace.t, trace.power_w, trace.charging):
        out.append({"name": COUNTER + label, "ph": "C", "pid": PID, "ts": _us(float(t), origin),
                    "args": {"W": round(float(p), 5)}})
        if ch:
            out.append({"name": "charging", "ph": "C", "pid": PID, "ts": _us(float(t), origin), "args": {"on": 1}})
    return out


def standalone_trace_events(trace: PowerTrace, title: str) -> dict[str, Any]:
    """A trace-event JSON of one power trace alone (``edgecl trace``)."""
    label = " (simulated)" if trace.simulated else ""
    origin = float(trace.t[0])
    events = [_meta("process_name", 0, f"{title}{label}")] + counter_events(trace, origin)
    return {"traceEvents": events, "displayTimeUnit": "ms",
            "otherData": {"simulated": trace.simulated, "clock": trace.clock, "origin_s": origin, "source": "edgecl"}}


def dump_trace_json(obj: dict[str, Any], path: str | Path) -> Path:
    """Validate, then write temp-and-rename; a trace that would not load is a bug, never a file."""
    problems = validate_trace_events(obj)
    if problems:
        raise ValueError("trace.json would not load: " + "; ".join(problems[:5]))
    path = Path(path)
    write_text_atomic(path, json.dumps(obj, separators=(",", ":"), allow_nan=False))
    return path


def build_trace_events(data: ResultsData) -> dict[str, Any]:
    label = " (simulated)" if data.simulated else ""
    times = [float(s.trace.t[0]) for s in data.sessions if s.trace is not None and len(s.trace)]
    times += [float(e["t"]) for s in data.sessions for e in s.events[:1]]
    events: list[dict[str, Any]] = [
        _meta("process_name", 0, f"edgecl device{label}"),
        _meta("thread_name", TID_SESSIONS, "sessions"), _meta("thread_name", TID_TASKS, "tasks"),
    ]
    slices: dict[str, list[tuple[float, float, dict[str, Any]]]] = {"session": [], "task": [], "phase": []}
    for s in data.sessions:
        for r in s.rows or []:
            if r.kind not in slices:                # estimates are not intervals
                continue
            args = {"session_id": r.session_id, "energy_j": r.energy_j, "mean_power_w": r.mean_power_w,
                    "train_samples": r.train_samples, "j_per_sample": r.j_per_sample, "simulated": r.simulated}
            if r.note:
                args["note"] = r.note
            name = f"{r.name} (task {r.task + 1})" if r.kind == "phase" and r.task is not None else r.name
            slices[r.kind].append((r.t0, r.t1, {"name": name, "cat": r.kind, "args": args}))
        if not any(r.kind in slices for r in s.rows):   # no power: still show the structure from events
            for g in event_groups(s.events, s.result, s.session_id):
                slices[g.kind].append((g.t0, g.t1, {"name": g.name, "cat": g.kind,
                                                    "args": {"session_id": s.session_id, "energy_j": None,
                                                             "simulated": data.simulated}}))
    times += [t0 for kind in slices.values() for t0, _, _ in kind]   # a phase may start before the first event
    origin = min(times) if times else 0.0
    phase_tids = set()
    for kind, tid in (("session", TID_SESSIONS), ("task", TID_TASKS), ("phase", TID_PHASES)):
        for lane_tid, t0, t1, ev in _lanes(slices[kind], tid):
            if kind == "phase":
                phase_tids.add(lane_tid)
            events.append({**ev, "ph": "X", "pid": PID, "tid": lane_tid, "ts": _us(t0, origin),
                           "dur": round(max(t1 - t0, 0.0) * 1e6, 3)})
    for k, tid in enumerate(sorted(phase_tids or {TID_PHASES})):
        events.append(_meta("thread_name", tid, "phases" if k == 0 else f"phases (overlap {k})"))
    for s in data.sessions:
        if s.trace is not None:
            events += counter_events(s.trace, origin)
    return {"traceEvents": events, "displayTimeUnit": "ms",
            "otherData": {"simulated": data.simulated, "clock": "device CLOCK_MONOTONIC",
                         "origin_s": origin, "source": "edgecl", "results": data.folder.name}}


def validate_trace_events(obj: Any) -> list[str]:
    """Problems that would stop chrome://tracing or ui.perfetto.dev from loading ``obj``; [] if none."""
    problems: list[str] = []
    try:
        json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return [f"not strict JSON: {exc}"]
    events = obj.get("traceEvents") if isinstance(obj, dict) else obj
    if not isinstance(events, list):
        return ["top level must be a list of events or an object with a 'traceEvents' list"]
    if isinstance(obj, dict) and obj.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        problems.append("displayTimeUnit must be 'ms' or 'ns'")
    per_thread: dict[tuple[Any, Any], list[tuple[float, float, int]]] = {}
    for i, ev in enumerate(events):
        where = f"event {i}"
        if not isinstance(ev, dict):
            problems.append(f"{where}: not an object")
            continue
        ph = ev.get("ph")
        if not isinstance(ev.get("name"), str):
            problems.append(f"{where}: 'name' must be a string")
        if not isinstance(ev.get("pid"), int):
            problems.append(f"{where}: 'pid' must be an integer")
        if ph == "M":
            if ev.get("name") not in METADATA_NAMES:
                problems.append(f"{where}: unknown metadata name {ev.get('name')!r}")
            if not isinstance(ev.get("args"), dict) or not ev["args"]:
                problems.append(f"{where}: metadata needs args")
            continue
        ts = ev.get("ts")
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or not math.isfinite(ts) or ts < 0:
            problems.append(f"{where}: 'ts' must be a finite number >= 0 (microseconds)")
            continue
        if ph == "X":
            dur = ev.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                problems.append(f"{where}: complete event needs 'dur' >= 0")
                continue
            if not isinstance(ev.get("tid"), int):
                problems.append(f"{where}: complete event needs an integer 'tid'")
                continue
            per_thread.setdefault((ev["pid"], ev["tid"]), []).append((float(ts), float(ts) + float(dur), i))
        elif ph == "C":
            args = ev.get("args")
            if not isinstance(args, dict) or not args or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in args.values()):
                problems.append(f"{where}: counter event needs args of numbers")
        elif ph in ("B", "E", "i", "I"):
            if not isinstance(ev.get("tid"), int):
                problems.append(f"{where}: needs an integer 'tid'")
        else:
            problems.append(f"{where}: unsupported phase type {ph!r}")
    for (pid, tid), spans in per_thread.items():
        stack: list[tuple[float, float, int]] = []
        for t0, t1, i in sorted(spans, key=lambda s: (s[0], -(s[1] - s[0]))):
            while stack and stack[-1][1] <= t0:
                stack.pop()
            if stack and t1 > stack[-1][1] + 1e-3:
                problems.append(f"event {i}: slice on pid {pid} tid {tid} overlaps event {stack[-1][2]} "
                                "without nesting inside it")
            stack.append((t0, t1, i))
    return problems


def write_trace_json(data: ResultsData, path: str | Path) -> Path:
    return dump_trace_json(build_trace_events(data), path)
