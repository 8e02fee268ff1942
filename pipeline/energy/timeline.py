"""A session's device time cut into contiguous segments, each billed to exactly one row.

Read from events.jsonl (and result.json), on the power trace's clock (clock.py). Every second
between the runner's launch and its end belongs to one segment, so the phases' energies add up to
the session's (nothing double-counted, nothing lost):
- ``loading``: process start (``t_launch`` of ``session_start``, else result.json ``t_start``) to
  the first ``phase_start`` of that runner: program and data load, restore;
- a phase (``training``, ``evaluation``, ...): ``phase_start`` to ``phase_end``; a nested phase owns
  its own time; a phase the runner never closed ends at its last event;
- ``overhead``: runner time outside every phase (task bookkeeping, checkpoints, writing results);
- ``paused``: a gap in the runner's heartbeat (``heartbeat`` events every ``heartbeat_s``, declared
  in ``session_start``) longer than PAUSE_FACTOR beats: the runner was stopped (SIGSTOP). Heartbeats
  carry the process's CPU seconds (``cpu_s``): a gap over which the process kept using CPU (a long
  step starving the heartbeat thread) is work, not a pause;
- ``suspended``: the phone slept (the CLOCK_BOOTTIME - CLOCK_MONOTONIC offset grew);
- ``relaunch``: from a runner's last event to the next runner's launch (a second ``session_start``
  in the same folder: the first runner died and the host started another).
Segments carry the task they happened in; ``loading`` and ``relaunch`` belong to the session only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.energy.clock import ClockMap

PAUSE_FACTOR = 3.0          # a heartbeat gap this many periods long is a pause, not a slow beat
BUSY_CPU_SHARE = 0.5        # ... unless the process used this share of one core over the gap
IDLE_LIKE = frozenset({"paused", "before", "after"})   # the phone idles there: the idle baseline applies


@dataclass
class Group:
    """One row of energy.csv: a phase occurrence, a loading, a pause, a task or the session."""

    kind: str                  # "session" | "task" | "phase"
    name: str
    task: int | None
    t0: float                  # stamps on the trace clock
    t1: float
    closed: bool = True
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Segment:
    kind: str                  # phase name, "loading", "overhead", "paused", "suspended", "relaunch"
    t0: float
    t1: float
    task: int | None
    group: int                 # index into Timeline.groups (a phase-kind group)


@dataclass
class Timeline:
    session_id: str
    start: float
    end: float
    segments: list[Segment]
    groups: list[Group]        # phase-kind groups first, then tasks, then the session (last)
    runners: int               # 1 + relaunches
    notes: list[str] = field(default_factory=list)


class _Builder:
    def __init__(self, clock: ClockMap, sample_times=None) -> None:
        self.clock = clock
        self.sample_times = sample_times
        self.segments: list[Segment] = []
        self.groups: list[Group] = []
        self.overhead: dict[int | None, int] = {}
        self.notes: list[str] = []
        self.unclosed_tasks: set[int] = set()

    def group(self, name: str, task: int | None, t0: float, t1: float | None = None) -> int:
        self.groups.append(Group("phase", name, task, t0, t0 if t1 is None else t1))
        return len(self.groups) - 1

    def add(self, kind: str, t0: float, t1: float, task: int | None, group: int) -> None:
        if t1 <= t0:
            return
        self.segments.append(Segment(kind, t0, t1, task, group))
        g = self.groups[group]
        g.t0, g.t1 = min(g.t0, t0), max(g.t1, t1)

    def overhead_group(self, task: int | None, t: float) -> int:
        if task not in self.overhead:
            self.overhead[task] = self.group("overhead", task, t)
        return self.overhead[task]


def _incarnations(evs: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = []
    for e in evs:
        if e.get("type") == "session_start" or not out:
            out.append([])
        out[-1].append(e)
    return out


def build_timeline(events: list[dict[str, Any]], clock: ClockMap, result: dict[str, Any] | None = None,
                   session_id: str = "", sample_times=None) -> Timeline | None:
    """The session's segments, or None without events. ``sample_times`` (the trace's, on its clock)
    place a suspend: the sampler is frozen while the phone sleeps, so it is the gap in the samples."""
    evs = sorted(events, key=lambda e: e.get("seq", 0))
    if not evs:
        return None
    result = result or {}
    b = _Builder(clock, sample_times)
    runs = _incarnations(evs)
    sid = next((str(e["session_id"]) for e in evs if e.get("type") == "session_start" and e.get("session_id")), session_id)
    start = end = None
    prev_last: float | None = None
    for n, run in enumerate(runs):
        first = run[0]
        launch_mono = float(first["t_launch"]) if first.get("t_launch") is not None else None
        t_start = result.get("t_start")
        if launch_mono is None and n == len(runs) - 1 and isinstance(t_start, (int, float)) \
                and float(t_start) <= float(first["t"]) and (prev_last is None or float(t_start) >= prev_last):
            launch_mono = float(t_start)            # result.json is the last runner's: its start is this launch
        launch_mono = float(first["t"]) if launch_mono is None else launch_mono
        if prev_last is not None:
            launch_mono = max(launch_mono, prev_last)     # never before the previous runner's last event
            g = b.group("relaunch", None, clock(prev_last))
            b.add("relaunch", clock(prev_last), clock(launch_mono), None, g)
            b.groups[g].notes.append(f"runner {n} died after its last event; runner {n + 1} launched "
                                     f"{launch_mono - prev_last:.2f} s later")
        cursor = _run(b, run, launch_mono, n)
        start = clock(launch_mono) if start is None else start
        prev_last = float(run[-1]["t"])
        end = cursor
    last = runs[-1]
    t_end = result.get("t_end")
    if isinstance(t_end, (int, float)) and float(t_end) > prev_last:
        task = None
        g = b.overhead_group(task, clock(prev_last))
        b.add("overhead", clock(prev_last), clock(float(t_end)), task, g)
        end = clock(float(t_end))
    ended = any(e.get("type") == "session_end" for e in last)
    b.notes.extend(clock.notes)
    groups = [g for k, g in enumerate(b.groups)
              if g.name not in ("loading", "overhead") or any(s.group == k for s in b.segments)]
    keep = {id(g): n for n, g in enumerate(groups)}
    remap = {k: keep[id(g)] for k, g in enumerate(b.groups) if id(g) in keep}
    segments = [Segment(s.kind, s.t0, s.t1, s.task, remap[s.group]) for s in b.segments]
    for k in sorted({s.task for s in segments if s.task is not None}):
        segs = [s for s in segments if s.task == k]
        unclosed = k in b.unclosed_tasks
        groups.append(Group("task", f"task {k + 1}", k, min(s.t0 for s in segs), max(s.t1 for s in segs), not unclosed,
                            ["no end event (task_end): cut at the last event"] if unclosed else []))
    notes = ["runner start to end (incl. loading)"] + ([f"{len(runs)} runners (relaunched)"] if len(runs) > 1 else [])
    if not ended:
        notes.append("no end event (session_end): cut at the last event")
    groups.append(Group("session", sid, None, start, end, ended, notes))
    return Timeline(sid, start, end, sorted(segments, key=lambda s: s.t0), groups, len(runs), b.notes)


def _run(b: _Builder, run: list[dict[str, Any]], launch: float, n: int) -> float:
    """Segments of one runner's life; returns its last time on the trace clock."""
    clock = b.clock
    loading = b.group("loading", None, clock(launch))
    b.groups[loading].notes.append(f"runner {n + 1}: process start to its first phase" if n else
                                   "process start to the first phase (program and data load)")
    stack: list[tuple[str, int | None, int]] = []        # open phases: (phase, task, group)
    task: int | None = None
    open_tasks: set[int] = set()
    loaded = False
    beat = next((float(e["heartbeat_s"]) for e in run if e.get("type") == "session_start" and e.get("heartbeat_s")), None)
    busy = _busy_gaps(run, beat)
    prev_mono = launch
    for e in run:
        t_mono = max(float(e["t"]), prev_mono)
        stalled = beat if beat and not any(h0 <= prev_mono and t_mono <= h1 for h0, h1 in busy) else None
        _fill(b, prev_mono, t_mono, stack, task, loaded, loading, stalled)
        typ = e.get("type")
        t = clock(t_mono)
        if typ == "task_start":
            task = int(e["task"])
            open_tasks.add(task)
        elif typ == "task_end":
            open_tasks.discard(int(e["task"]))
            task = None
        elif typ == "phase_start":
            ptask = int(e["task"]) if e.get("task") is not None else task
            stack.append((str(e["phase"]), ptask, b.group(str(e["phase"]), ptask, t)))
            loaded = True
        elif typ == "phase_end":
            key = (str(e["phase"]), int(e["task"]) if e.get("task") is not None else None)
            for i in range(len(stack) - 1, -1, -1):
                if (stack[i][0], stack[i][1]) == key or (key[1] is None and stack[i][0] == key[0]):
                    b.groups[stack[i][2]].t1 = t
                    del stack[i]
                    break
        prev_mono = t_mono
    for phase, _task, g in stack:
        b.groups[g].closed = False
        b.groups[g].notes.append("no end event: cut at the runner's last event")
    b.unclosed_tasks |= open_tasks
    return clock(prev_mono)


def _busy_gaps(run: list[dict[str, Any]], beat: float | None) -> list[tuple[float, float]]:
    """Spans between two consecutive heartbeats too far apart over which the process used CPU."""
    if not beat:
        return []
    beats = [(float(e["t"]), float(e["cpu_s"])) for e in run if e.get("type") == "heartbeat" and e.get("cpu_s") is not None]
    return [(t0, t1) for (t0, c0), (t1, c1) in zip(beats, beats[1:])
            if t1 - t0 > PAUSE_FACTOR * beat and c1 - c0 >= BUSY_CPU_SHARE * (t1 - t0 - beat)]


def _fill(b: _Builder, a: float, z: float, stack, task, loaded: bool, loading: int, beat: float | None) -> None:
    """Bill monotonic [a, z] to the current state, splitting off a pause (``beat``: the heartbeat
    period where a long gap would be one, None where it cannot be) and a suspend."""
    if z <= a:
        return
    clock = b.clock
    if stack:
        kind, seg_task, group = stack[-1][0], stack[-1][1], stack[-1][2]
    elif not loaded:
        kind, seg_task, group = "loading", None, loading
    else:
        kind, seg_task = "overhead", task
        group = b.overhead_group(task, clock(a))
    t_a, t_z = clock(a), clock(z)
    slept = clock.suspended_between(a, z)
    if slept:
        s0 = _suspend_start(b.sample_times, t_a, t_z, slept)
        _fill_awake(b, kind, t_a, s0, seg_task, group, beat if loaded else None)
        g = b.group("suspended", seg_task, s0)
        b.add("suspended", s0, s0 + slept, seg_task, g)
        _fill_awake(b, kind, s0 + slept, t_z, seg_task, group, None)
    else:
        _fill_awake(b, kind, t_a, t_z, seg_task, group, beat if loaded else None)


def _fill_awake(b: _Builder, kind: str, t_a: float, t_z: float, task, group: int, beat: float | None) -> None:
    if beat and (t_z - t_a) > PAUSE_FACTOR * beat:
        b.add(kind, t_a, t_a + beat, task, group)
        g = b.group("paused", task, t_a + beat)
        b.add("paused", t_a + beat, t_z, task, g)
        b.groups[g].notes.append(f"no heartbeat for {t_z - t_a:.1f} s (beat {beat:g} s): runner stopped")
    else:
        b.add(kind, t_a, t_z, task, group)


def _suspend_start(sample_times, t_a: float, t_z: float, slept: float) -> float:
    """Where in [t_a, t_z] the phone slept: the sampler's widest gap there if it is about as long,
    else (no trace to tell) the end of the span."""
    if sample_times is not None and len(sample_times) > 1:
        import numpy as np
        t = np.asarray(sample_times)
        lo, hi = np.searchsorted(t, t_a), np.searchsorted(t, t_z, side="right")
        inner = t[max(lo - 1, 0):min(hi + 1, len(t))]
        if len(inner) > 1:
            k = int(np.argmax(np.diff(inner)))
            if inner[k + 1] - inner[k] >= 0.8 * slept:
                return float(min(max(inner[k], t_a), t_z - slept))
    return t_z - slept


def event_groups(events: list[dict[str, Any]], result: dict[str, Any] | None = None, session_id: str = "") -> list[Group]:
    """The session/task/phase spans of ``events`` on their own (monotonic) clock, without power."""
    tl = build_timeline(events, ClockMap("CLOCK_MONOTONIC"), result, session_id)
    return [] if tl is None else tl.groups
