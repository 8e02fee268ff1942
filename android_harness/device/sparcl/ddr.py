"""DDR's forgetting statistics and data removal over the stream buffer's rows (docs/semantics.md 7).

Per SB row, in the window since the last removal (or the task start): ``events`` (correct ->
incorrect between consecutive observations), ``seen``, ``last_correct``, ``ever_correct``. The
score is ``events``, ``+inf`` for a row never correct in the window. Removing ``k``: the active rows
sorted by score ascending (ties: lower row) lose their first ``k``; then the window restarts for
every row. Removed rows leave the pool at once and never reach the storage tier or EM.
With a ``draw`` stream (``ddr_select = "random"``) the ``k`` rows are ``sample(active, k)`` instead.
"""
from __future__ import annotations

import numpy as np

from android_harness.device.rng import Stream


class DdrState:
    """The DDR arrays of one task's SB (``n`` rows); observations are applied row by row, in order."""

    ARRAYS = ("removed", "ever_correct", "last_correct", "seen", "events")

    def __init__(self, n: int) -> None:
        self.n = int(n)
        self.removed = np.zeros(self.n, dtype=bool)
        self._reset_window()

    def _reset_window(self) -> None:
        self.events = np.zeros(self.n, dtype=np.int64)
        self.ever_correct = np.zeros(self.n, dtype=bool)
        self.last_correct = np.zeros(self.n, dtype=bool)
        self.seen = np.zeros(self.n, dtype=bool)

    def observe(self, rows: np.ndarray, ok: np.ndarray) -> None:
        """Sequential: ``if seen and last_correct and not ok: events += 1``; then ``last_correct = ok``,
        ``seen = True``, ``ever_correct |= ok`` (a row twice in one step is observed twice)."""
        for r, good in zip(np.asarray(rows, np.int64).tolist(), np.asarray(ok, bool).tolist()):
            if self.seen[r] and self.last_correct[r] and not good:
                self.events[r] += 1
            self.last_correct[r] = good
            self.seen[r] = True
            self.ever_correct[r] |= good

    def scores(self) -> np.ndarray:
        s = self.events.astype(np.float64)
        s[~self.ever_correct] = np.inf
        return s

    def window_counts(self) -> list[int]:
        """The active rows' window as ``[no events, forgotten at least once, never correct]``: a
        window with one observation per row (a removal every epoch) can hold no event at all."""
        s = self.scores()[self.active()]
        never = int(np.isinf(s).sum())
        zero = int((s == 0).sum())
        return [zero, int(s.size) - zero - never, never]

    def active(self) -> np.ndarray:
        """Rows not removed, ascending."""
        return np.flatnonzero(~self.removed)

    def remove(self, count: int, draw: Stream | None = None) -> np.ndarray:
        """Remove the ``count`` lowest-scoring active rows, or with ``draw`` the active rows at
        ``draw.sample(active count, count)``; return them ascending."""
        active = self.active()
        count = max(0, min(int(count), active.size))
        if draw is None:
            order = np.argsort(self.scores()[active], kind="stable")[:count]
        else:
            order = draw.sample(active.size, count)
        gone = np.sort(active[order])
        self.removed[gone] = True
        self._reset_window()
        return gone

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name).copy() for name in self.ARRAYS}

    def load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        for name in self.ARRAYS:
            a = np.asarray(arrays[name])
            if a.shape != (self.n,):
                raise ValueError(f"DDR array {name}: shape {a.shape}, expected ({self.n},)")
            setattr(self, name, a.astype(np.int64 if name == "events" else bool))
