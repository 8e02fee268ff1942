"""The stream buffer SB: the current task's training rows in RAM (docs/semantics.md 2, 5.1).

With ``N`` rows in the task's train shard and ``cap = sb_size``: every row when ``N <= cap``, else
``sort(sample(N, cap))`` of ``stream(seed, SB_FILL, task, 0)``. ``joint`` holds every row of every
task seen so far, in task order. A profiling session keeps ``sort(sample(|SB|, max(1, round(f*|SB|))))``
of ``stream(seed, SUBSET, task, 0)``. SB row ``r`` keeps its sample id ``(task << 32) | row``
and, for DER++, the logits it was last trained with (0 until then).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from android_harness.device.rng import SB_FILL, SUBSET, Stream
from android_harness.device.task_data import TaskData, sample_ids


def subset_rows(n: int, fraction: float, seed: int, task: int, which: int) -> np.ndarray | None:
    """A profiling session's subset of ``n`` entries (``which``: 0 = SB, 1 = EM); None = keep all."""
    if fraction >= 1.0 or n == 0:
        return None
    return np.sort(Stream(seed, SUBSET, task, which).sample(n, max(1, int(round(fraction * n)))))


@dataclass
class StreamBuffer:
    rows: np.ndarray        # [n] row within its task's train shard
    ids: np.ndarray         # [n] sample ids
    x: np.ndarray           # [n, ...] float32
    y: np.ndarray           # [n] int64
    logits: np.ndarray      # [n, C] DER++ stored logits ([n, 0] otherwise)

    @property
    def size(self) -> int:
        return len(self.y)

    @classmethod
    def build(cls, data: TaskData, task: int, seed: int, sb_size: int, joint: bool, subset_fraction: float,
              n_logits: int) -> "StreamBuffer":
        parts = []
        for t in (data.seen_tasks(task) if joint else [task]):
            x, y = data.train(t)
            rows = np.arange(len(y), dtype=np.int64)
            if not joint and len(y) > sb_size:
                rows = np.sort(Stream(seed, SB_FILL, task, 0).sample(len(y), sb_size))
            parts.append((rows, sample_ids(t, rows), x[rows], y[rows]))
        rows, ids, x, y = (np.concatenate(p) for p in zip(*parts))
        keep = subset_rows(len(rows), subset_fraction, seed, task, 0)
        if keep is not None:
            rows, ids, x, y = rows[keep], ids[keep], x[keep], y[keep]
        return cls(rows, ids, np.ascontiguousarray(x, np.float32), y.astype(np.int64),
                   np.zeros((len(rows), n_logits), np.float32))
