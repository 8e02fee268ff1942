"""Miro's swap worker: refresh EM slots with same-class samples read from the storage tier.

After a batch is drawn, ``submit`` picks ceil(swap_ratio * #EM-samples-in-batch) of the batch's EM
slots and, for each, a random stored sample of the same class; a background thread reads those
records while the step computes. ``apply`` (called before the next batch is drawn) waits for the
reads and writes them into the EM. All random choices are made in ``submit`` from a generator
seeded by (seed, iteration), so a run and its resume from a checkpoint swap identically.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass

import numpy as np

from android_harness.device.replay.memory import EpisodicMemory, swap_count
from android_harness.device.replay.storage import StorageTier


@dataclass
class SwapResult:
    n_swapped: int
    seconds: float


class SwapWorker:
    """One background reader thread; at most one swap job in flight."""

    def __init__(self, storage: StorageTier, memory: EpisodicMemory, ratio: float, period: int, seed: int) -> None:
        self.storage, self.memory = storage, memory
        self.ratio, self.period, self.seed = float(ratio), max(1, int(period)), int(seed)
        self._jobs: queue.Queue = queue.Queue(maxsize=1)
        self._done: queue.Queue = queue.Queue(maxsize=1)
        self._pending = False
        self._thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        return self.ratio > 0.0

    def submit(self, iteration: int, slots: np.ndarray) -> bool:
        """Plan a swap of this batch's EM ``slots``; returns whether a job was started."""
        if not self.enabled or iteration % self.period != 0 or len(slots) == 0:
            return False
        self.apply()
        slots = np.unique(np.asarray(slots, dtype=np.int64))
        rng = np.random.default_rng([self.seed, int(iteration), 0x5A5])
        chosen = np.sort(rng.choice(slots, size=swap_count(self.ratio, len(slots)), replace=False))
        labels = self.memory.y[chosen]
        stored = {int(c): self.storage.count(int(c)) for c in np.unique(labels)}
        counts = np.array([stored[int(c)] for c in labels], dtype=np.int64)
        pick = (rng.random(len(chosen)) * counts).astype(np.int64)
        keep = counts > 0
        plan = [(chosen[keep & (labels == c)], c, pick[keep & (labels == c)]) for c in stored if stored[c]]
        if not plan:
            return False
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="edgecl-swap", daemon=True)
            self._thread.start()
        self._jobs.put(plan)
        self._pending = True
        return True

    def _run(self) -> None:
        while True:
            plan = self._jobs.get()
            if plan is None:
                return
            t0 = time.perf_counter()
            try:
                rows = [(slots, label, *self.storage.read_many(label, idx)) for slots, label, idx in plan]
                self._done.put((rows, time.perf_counter() - t0, None))
            except Exception as exc:  # handed to the main thread, which raises it
                self._done.put(([], time.perf_counter() - t0, exc))

    def apply(self) -> SwapResult | None:
        """Wait for the job in flight (if any) and write its samples into the EM."""
        if not self._pending:
            return None
        rows, seconds, exc = self._done.get()
        self._pending = False
        if exc is not None:
            raise exc
        n = 0
        for slots, label, ids, x, logits in rows:
            self.memory.put(slots, x, np.full(len(slots), label, np.int64), logits, ids)
            n += len(slots)
        return SwapResult(n, seconds)

    def close(self) -> None:
        if self._pending:
            self.apply()
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=5)
            self._thread = None
