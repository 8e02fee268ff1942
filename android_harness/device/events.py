"""``events.jsonl``: the runner's append-only log, one JSON object a line (docs/contracts.md).

Every line carries ``seq`` (0, 1, 2, ... without gaps over the whole session, also across a
resume), ``t`` (CLOCK_MONOTONIC seconds) and ``t_boot`` (CLOCK_BOOTTIME of the same instant: the
shell-only power sampler's clock, docs/contracts.md "Clocks"). A line is written with one ``write``
call and is complete or absent: on open the log drops a torn last line and continues the sequence
from the last complete one, so the host, which reads by byte offset, never sees a gap or a duplicate.
``Heartbeat`` writes a ``heartbeat`` event every period from its own thread while the runner runs:
a gap in them is a pause (SIGSTOP), billed apart on the host (pipeline/energy/timeline.py).
"""
from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

from android_harness.device.disk_space import append_whole
from android_harness.device.errors import NoSpaceError

HEARTBEAT_S = 0.5


def monotonic() -> float:
    """The device clock shared by events and the power sampler."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def boottime() -> float:
    """CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time the phone spent suspended (/proc/uptime's clock)."""
    return time.clock_gettime(time.CLOCK_BOOTTIME)


def clock_pair(tries: int = 4, bracket_s: float = 1e-3) -> tuple[float, float]:
    """(CLOCK_MONOTONIC, CLOCK_BOOTTIME) of one instant: boottime read between two monotonic reads, retried
    when a preemption split them (their offset is the suspend time the host maps events with)."""
    best = None
    for _ in range(tries):
        m0 = monotonic()
        b = boottime()
        m1 = monotonic()
        if best is None or m1 - m0 < best[0]:
            best = (m1 - m0, (m0 + m1) / 2.0, b)
        if m1 - m0 <= bracket_s:
            break
    return best[1], best[2]


def process_start() -> float:
    """CLOCK_MONOTONIC of this process's start (/proc/self/stat ``starttime``, boottime clock ticks),
    so interpreter start and imports count as the runner's program load; now if unreadable."""
    now_mono, now_boot = clock_pair()
    try:
        with open("/proc/self/stat", "rb") as f:
            raw = f.read()
        ticks = int(raw[raw.rfind(b")") + 2:].split()[19])
        start = ticks / os.sysconf("SC_CLK_TCK") - (now_boot - now_mono)
    except (OSError, ValueError, IndexError):
        return now_mono
    return start if 0.0 < start <= now_mono else now_mono


class EventLog:
    """Appends events. Important types fsync at once; the rest at most every ``fsync_s`` seconds, so
    a training step never waits on flash (a process kill loses nothing either way: the page cache
    keeps every completed write; fsync only matters for a power cut)."""

    DURABLE = frozenset({"session_start", "session_end", "task_end", "checkpoint", "error", "eval"})

    def __init__(self, path: str, fsync_s: float = 2.0) -> None:
        self.path = path
        self.fsync_s = float(fsync_s)
        self.last_type: str | None = None    # the type of the log's last complete line (then of the last emit)
        self.next_seq = self._recover()
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._unsynced = 0
        self._synced_at = monotonic()
        self._lock = threading.Lock()     # the heartbeat thread emits too: one seq, one line at a time

    def _recover(self) -> int:
        """Truncate a torn tail and return the next sequence number."""
        if not os.path.exists(self.path):
            return 0
        with open(self.path, "rb+") as f:
            data = f.read()
            end = data.rfind(b"\n") + 1
            if end != len(data):
                f.truncate(end)
        lines = data[:end].splitlines()
        if not lines:
            return 0
        last = json.loads(lines[-1])
        self.last_type = last.get("type")
        return int(last["seq"]) + 1

    def emit(self, type_: str, **fields: Any) -> dict[str, Any]:
        with self._lock:
            t, t_boot = clock_pair()
            event = {"seq": self.next_seq, "t": round(t, 6), "t_boot": round(t_boot, 6), "type": type_, **fields}
            line = (json.dumps(event, separators=(",", ":"), default=_jsonable) + "\n").encode()
            append_whole(self._fd, self.path, line)    # whole or absent, also on a full disk
            self.next_seq += 1
            self.last_type = type_
            self._unsynced += 1
            if type_ in self.DURABLE or event["t"] - self._synced_at >= self.fsync_s:
                self.sync()
        return event

    def sync(self) -> None:
        os.fsync(self._fd)
        self._unsynced = 0
        self._synced_at = monotonic()

    def close(self) -> None:
        if self._fd >= 0:
            self.sync()
            os.close(self._fd)
            self._fd = -1


class Heartbeat:
    """``heartbeat`` {cpu_s: the process's CPU seconds} every ``period_s`` from a daemon thread,
    between ``start()`` and ``stop()``. A stopped process (SIGSTOP) writes none and uses no CPU; a
    busy one (a long step holding the GIL) keeps using CPU, so the host tells the two apart."""

    def __init__(self, log: EventLog, period_s: float = HEARTBEAT_S) -> None:
        self.log, self.period_s = log, float(period_s)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._beat, name="heartbeat", daemon=True)
        self._thread.start()

    def _beat(self) -> None:
        while not self._stop.wait(self.period_s):
            try:
                self.log.emit("heartbeat", cpu_s=round(time.process_time(), 4))
            except (OSError, NoSpaceError):
                continue        # a full disk: the session's own next write fails and names it

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def _jsonable(value: Any) -> Any:
    """numpy scalars and arrays in event fields become plain JSON values."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"event field of type {type(value).__name__} is not JSON-serialisable")


def read_events(path: str, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    """Complete events from byte ``offset``; returns them and the offset after the last complete line."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return [], offset
    end = data.rfind(b"\n") + 1
    return [json.loads(line) for line in data[:end].splitlines() if line.strip()], offset + end
