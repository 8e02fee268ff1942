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
        chosen = rng.choice(slots, size=swap_count(self.ratio, len(slots)), replace=False)
        plan = []
        for slot in np.sort(chosen).tolist():
            label = int(self.memory.y[slot])
            n = self.storage.count(label)
            if n:
                plan.append((slot, label, int(rng.integers(0, n))))
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
                rows = [(slot, label, *self.storage.read(label, idx)) for slot, label, idx in plan]
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
        for slot, label, sid, x, logits in rows:
            self.memory.put(np.array([slot]), x[None], np.array([label]), None if logits is None else logits[None], np.array([sid]))
        return SwapResult(len(rows), seconds)

    def close(self) -> None:
        if self._pending:
            self.apply()
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=5)
            self._thread = None
