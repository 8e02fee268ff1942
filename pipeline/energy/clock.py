"""Putting events on the power trace's clock (docs/contracts.md, "Clocks").

The runner stamps every event with CLOCK_MONOTONIC (``t``) and, where it can, CLOCK_BOOTTIME
(``t_boot``). The Python sampler stamps power.csv with CLOCK_MONOTONIC; the shell-only sampler can
read only ``/proc/uptime``, which is CLOCK_BOOTTIME. The two clocks differ by the time the phone
spent suspended, a constant between suspends, so the exact map of a monotonic time to boottime is
the offset ``t_boot - t`` of the events around it; a change of that offset between two events is
a suspend between them (reported, never smoothed over).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pipeline.errors import PowerError

MONO, BOOT = "CLOCK_MONOTONIC", "CLOCK_BOOTTIME"
SUSPEND_TOL_S = 0.02          # offset changes below this are rounding (events carry 6 decimals, uptime 2)


@dataclass
class ClockMap:
    """Monotonic event time -> the trace's clock."""

    target: str
    mono: np.ndarray = field(default_factory=lambda: np.zeros(0))     # anchor monotonic times
    offset: np.ndarray = field(default_factory=lambda: np.zeros(0))   # boottime - monotonic at each anchor
    notes: list[str] = field(default_factory=list)

    def __call__(self, t: float) -> float:
        if self.target == MONO:
            return float(t)
        k = int(np.searchsorted(self.mono, t, side="right")) - 1
        return float(t + self.offset[max(k, 0)])

    def suspended_between(self, t0: float, t1: float) -> float:
        """Seconds the phone slept between monotonic times t0 < t1 (0 on a monotonic trace)."""
        if self.target == MONO or t1 <= t0:
            return 0.0
        s = self(t1) - self(t0) - (t1 - t0)
        return s if s > SUSPEND_TOL_S else 0.0


def event_clock(events: list[dict[str, Any]], trace_clock: str, where: str = "events.jsonl") -> ClockMap:
    """The map for ``events`` onto a trace stamped with ``trace_clock``; PowerError when there is none."""
    if trace_clock == MONO:
        return ClockMap(MONO)
    if trace_clock != BOOT:
        raise PowerError(f"power trace clock {trace_clock!r} is neither {MONO} nor {BOOT}")
    pairs = [(float(e["t"]), float(e["t_boot"])) for e in events if e.get("t_boot") is not None]
    if not pairs:
        raise PowerError(f"the power trace is on {BOOT} (shell-only sampler) but {where} has no t_boot stamps: "
                         "the runner must write CLOCK_BOOTTIME beside CLOCK_MONOTONIC (docs/contracts.md, Clocks) "
                         "for its events to be placed on that trace")
    pairs.sort()
    mono = np.array([p[0] for p in pairs])
    off = np.array([p[1] - p[0] for p in pairs])
    notes = []
    jumps = np.flatnonzero(np.abs(np.diff(off)) > SUSPEND_TOL_S)
    for j in jumps:
        notes.append(f"the phone was suspended {off[j + 1] - off[j]:.2f} s between events at "
                     f"t={mono[j]:.3f} and t={mono[j + 1]:.3f} (CLOCK_MONOTONIC): billed as 'suspended', "
                     "not to the phase around it")
    return ClockMap(BOOT, mono, off, notes)
