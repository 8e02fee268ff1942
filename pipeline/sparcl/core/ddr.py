"""DDR's forgetting statistics and data removal for the current task, numpy only.

Per current-task sample the tracker counts *forgetting events* (correct -> incorrect between two
consecutive observations) in the window since the last removal; a sample never classified
correctly in the window counts as maximally forgotten. At a removal point the least-forgotten
(easiest) active samples are removed (ties: lowest index first, so runs are reproducible) and the
window restarts. Removed samples are never offered again in this task, neither for training nor
to the replay buffer (``removed`` / ``is_removed`` let the buffer skip them); each new task
starts from its full data.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np


class ForgettingTracker:
    """Forgetting events and the removed set of the current task's samples (indices 0..n-1)."""

    def __init__(self) -> None:
        self.start_task(0)

    def start_task(self, n_samples: int) -> None:
        self.n = int(n_samples)
        self.removed = np.zeros(self.n, dtype=bool)
        self._reset_window()

    def _reset_window(self) -> None:
        self.events = np.zeros(self.n, dtype=np.int64)
        self.ever_correct = np.zeros(self.n, dtype=bool)
        self.last_correct = np.zeros(self.n, dtype=bool)
        self.seen = np.zeros(self.n, dtype=bool)

    def observe(self, indices: np.ndarray, correct: np.ndarray) -> None:
        """Record one observation per sample (a sample seen twice in one call uses its last value)."""
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        ok = np.asarray(correct, dtype=bool).reshape(-1)
        if idx.size != ok.size:
            raise ValueError(f"observe: {idx.size} indices but {ok.size} correctness flags")
        if idx.size and (idx.min() < 0 or idx.max() >= self.n):
            raise ValueError(f"observe: sample index out of range [0, {self.n})")
        forgot = self.seen[idx] & self.last_correct[idx] & ~ok
        np.add.at(self.events, idx[forgot], 1)
        self.last_correct[idx] = ok
        self.seen[idx] = True
        self.ever_correct[idx] |= ok

    def scores(self) -> np.ndarray:
        """Forgetting score per sample (inf = never correct in the window)."""
        s = self.events.astype(np.float64)
        s[~self.ever_correct] = np.inf
        return s

    def remove_least_forgotten(self, count: int) -> np.ndarray:
        """Remove ``count`` active samples with the lowest score; return their indices."""
        active = np.flatnonzero(~self.removed)
        count = max(0, min(int(count), active.size))
        order = np.argsort(self.scores()[active], kind="stable")[:count]
        gone = np.sort(active[order])
        self.removed[gone] = True
        self._reset_window()
        return gone

    def active(self, indices: np.ndarray | None = None) -> np.ndarray:
        """The given (default: all) task sample indices that are not removed, order kept."""
        idx = np.arange(self.n) if indices is None else np.asarray(indices, dtype=np.int64)
        return idx[~self.removed[idx]]

    def is_removed(self, indices: np.ndarray) -> np.ndarray:
        return self.removed[np.asarray(indices, dtype=np.int64)]

    def state_dict(self) -> dict:
        return {
            "n": self.n, "removed": self.removed.copy(), "events": self.events.copy(),
            "ever_correct": self.ever_correct.copy(), "last_correct": self.last_correct.copy(),
            "seen": self.seen.copy(),
        }

    def load_state_dict(self, state: Mapping) -> None:
        self.n = int(state["n"])
        self.removed = np.asarray(state["removed"], dtype=bool).copy()
        self.events = np.asarray(state["events"], dtype=np.int64).copy()
        self.ever_correct = np.asarray(state["ever_correct"], dtype=bool).copy()
        self.last_correct = np.asarray(state["last_correct"], dtype=bool).copy()
        self.seen = np.asarray(state["seen"], dtype=bool).copy()
        if any(a.size != self.n for a in (self.removed, self.events, self.ever_correct, self.last_correct, self.seen)):
            raise ValueError(f"DDR state arrays do not all have n={self.n} entries")
