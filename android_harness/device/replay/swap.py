"""Miro's swap (docs/semantics.md 4.10): refresh EM slots with same-class records of the storage tier.

``plan_swap`` makes every choice from ``stream(seed, SWAP, task, task_step)``: of the distinct EM
slots ``U`` of the step (ascending, ``c = |U|``), ``n = min(c, ceil(swap_ratio * c - 1e-9))`` chosen
by ``sort(U[j] for j in sample(c, n))``; each chosen slot (ascending) then gets ``k = below(N_cls)``
of its class. ``SwapReader`` reads the planned records on a background thread while the step
finishes; ``apply`` (at the next step's start, a checkpoint or the task end) waits and writes them
into the EM, so the order of draws never depends on timing.
"""
from __future__ import annotations

import math
import queue
import threading
import time

import numpy as np

from android_harness.device.replay.em_build import EpisodicMemory
from android_harness.device.replay.storage import StorageTier
from android_harness.device.rng import SWAP, Stream


def swap_count(ratio: float, c: int) -> int:
    """Miro's rule: ceil(swap_ratio * EM slots in the step), at most all of them."""
    return min(c, math.ceil(ratio * c - 1e-9))


def plan_swap(slots_in_step: np.ndarray, em: EpisodicMemory, storage: StorageTier, ratio: float,
              seed: int, task: int, task_step: int) -> np.ndarray:
    """``[n, 3]`` rows (slot, class, k): the new references of the chosen slots."""
    u = np.unique(np.asarray(slots_in_step, np.int64))
    n = swap_count(ratio, u.size)
    if n == 0:
        return np.zeros((0, 3), np.int64)
    rs = Stream(seed, SWAP, task, task_step)
    plan = []
    for s in np.sort(u[rs.sample(u.size, n)]).tolist():
        cls = int(em.refs[s, 0])
        n_cls = storage.count(cls)
        if n_cls > 0:
            plan.append((s, cls, rs.below(n_cls)))
    return np.array(plan, np.int64).reshape(-1, 3)


class SwapReader:
    """One background reader thread; at most one plan in flight."""

    def __init__(self, storage: StorageTier) -> None:
        self.storage = storage
        self._jobs: queue.Queue = queue.Queue(maxsize=1)
        self._done: queue.Queue = queue.Queue(maxsize=1)
        self._pending: np.ndarray | None = None
        self._thread: threading.Thread | None = None
        self.swapped = 0
        self.seconds = 0.0

    def submit(self, plan: np.ndarray) -> None:
        if len(plan) == 0:
            return
        if self._pending is not None:
            raise RuntimeError("a swap plan is already in flight (apply() it first)")
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="edgecl-swap", daemon=True)
            self._thread.start()
        self._pending = plan
        self._jobs.put(plan)

    def _run(self) -> None:
        while True:
            plan = self._jobs.get()
            if plan is None:
                return
            t0 = time.perf_counter()
            try:
                reads = {int(c): self.storage.read_many(int(c), plan[plan[:, 1] == c, 2]) for c in np.unique(plan[:, 1])}
                self._done.put((reads, time.perf_counter() - t0, None))
            except Exception as exc:  # handed to the main thread, which raises it
                self._done.put(({}, time.perf_counter() - t0, exc))

    def apply(self, em: EpisodicMemory) -> int:
        """Wait for the plan in flight (if any) and point its slots at the new records; returns how many."""
        plan, self._pending = self._pending, None
        if plan is None:
            return 0
        reads, seconds, exc = self._done.get()
        if exc is not None:
            raise exc
        for c, (ids, x, logits) in reads.items():
            rows = plan[plan[:, 1] == c]
            em.assign(rows[:, 0], rows[:, 1:], ids, x, logits)
        self.swapped += len(plan)
        self.seconds += seconds
        return len(plan)

    def close(self) -> None:
        if self._pending is not None:
            self._done.get()
            self._pending = None
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=5)
            self._thread = None
