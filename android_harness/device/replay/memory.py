"""The replay store's RAM tier: episodic memory (EM) and stream buffer (SB), Miro's two RAM levels.

Both preallocate their arrays at construction, so their footprint is fixed and can never grow past
the budget they were given (samples AND bytes). EM holds old classes, class-balanced; SB holds the
current task's samples (and, for DER++, the logits recorded when each was last trained on).
"""
from __future__ import annotations

import math

import numpy as np

from android_harness.device.errors import ReplayStoreError
from pipeline.cl.reservoir import reservoir_slot


def balanced_quota(capacity: int, labels: list[int]) -> dict[int, int]:
    """Slots per class: equal shares, the remainder to the lowest labels (deterministic)."""
    labels = sorted(labels)
    if not labels:
        return {}
    base, extra = divmod(capacity, len(labels))
    return {c: base + (1 if i < extra else 0) for i, c in enumerate(labels)}


class _SampleArrays:
    """Fixed-size arrays of samples: x, label, logits, sample id."""

    def __init__(self, capacity: int, x_shape: tuple[int, ...], n_logits: int, max_bytes: int | None, what: str) -> None:
        per = self.sample_bytes(x_shape, n_logits)
        if max_bytes is not None:
            if max_bytes < per and capacity > 0:
                raise ReplayStoreError(f"{what}: byte budget {max_bytes} is smaller than one sample ({per} bytes)")
            capacity = min(capacity, max_bytes // per)
        self.capacity = int(capacity)
        self.max_bytes = max_bytes
        self.x = np.zeros((self.capacity,) + tuple(x_shape), dtype=np.float32)
        self.y = np.zeros(self.capacity, dtype=np.int64)
        self.logits = np.zeros((self.capacity, n_logits), dtype=np.float32)
        self.ids = np.full(self.capacity, -1, dtype=np.int64)
        self.size = 0

    @staticmethod
    def sample_bytes(x_shape: tuple[int, ...], n_logits: int) -> int:
        return 4 * int(np.prod(x_shape)) + 8 + 4 * n_logits + 8

    @property
    def nbytes(self) -> int:
        return self.x.nbytes + self.y.nbytes + self.logits.nbytes + self.ids.nbytes

    def class_counts(self) -> dict[int, int]:
        labels, counts = np.unique(self.y[: self.size], return_counts=True)
        return {int(c): int(n) for c, n in zip(labels, counts)}

    def put(self, slots: np.ndarray, x: np.ndarray, y: np.ndarray, logits: np.ndarray | None, ids: np.ndarray) -> None:
        self.x[slots] = x
        self.y[slots] = y
        if logits is not None and self.logits.shape[1]:
            self.logits[slots] = logits
        self.ids[slots] = ids

    def state_dict(self, prefix: str) -> dict[str, np.ndarray]:
        n = self.size
        return {f"{prefix}x": self.x[:n].copy(), f"{prefix}y": self.y[:n].copy(),
                f"{prefix}logits": self.logits[:n].copy(), f"{prefix}ids": self.ids[:n].copy()}

    def load_state_dict(self, state: dict[str, np.ndarray], prefix: str) -> None:
        n = len(state[f"{prefix}y"])
        if n > self.capacity:
            raise ReplayStoreError(f"checkpoint holds {n} samples, more than this buffer's capacity {self.capacity}")
        self.size = n
        self.put(np.arange(n), state[f"{prefix}x"], state[f"{prefix}y"], state[f"{prefix}logits"], state[f"{prefix}ids"])


class EpisodicMemory(_SampleArrays):
    """Class-balanced replay memory of old samples, fixed capacity in samples and bytes."""

    def __init__(self, capacity: int, x_shape: tuple[int, ...], n_logits: int = 0, max_bytes: int | None = None) -> None:
        super().__init__(capacity, x_shape, n_logits, max_bytes, "episodic memory")
        self.seen = 0

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """Slots of a replay draw (without replacement, as mammoth's buffer)."""
        if self.size == 0:
            return np.zeros(0, dtype=np.int64)
        return rng.choice(self.size, size=min(n, self.size), replace=False)

    def add_reservoir(self, x: np.ndarray, y: np.ndarray, logits: np.ndarray | None, ids: np.ndarray,
                      rng: np.random.Generator) -> None:
        """Mammoth's reservoir insertion (used when the EM mirrors the host reference trainer)."""
        for i in range(len(y)):
            slot = reservoir_slot(self.seen, self.capacity, rng)
            self.seen += 1
            self.size = min(self.seen, self.capacity)
            if slot >= 0:
                self.put(np.array([slot]), x[i:i + 1], y[i:i + 1], None if logits is None else logits[i:i + 1], ids[i:i + 1])

    def rebalance(self, sb: "StreamBuffer", rng: np.random.Generator) -> None:
        """End of task: every class seen (old EM classes + SB classes) gets an equal share of slots."""
        old = self.class_counts()
        new = sb.class_counts()
        quota = balanced_quota(self.capacity, sorted(set(old) | set(new)))
        keep_slots: list[np.ndarray] = []
        for c in sorted(old):
            slots = np.flatnonzero(self.y[: self.size] == c)
            take = min(len(slots), quota[c])
            keep_slots.append(np.sort(rng.choice(slots, size=take, replace=False)))
        kept = np.concatenate(keep_slots) if keep_slots else np.zeros(0, dtype=np.int64)
        kept_per_class = {c: int(np.sum(self.y[kept] == c)) for c in new}
        parts = [(self.x[kept], self.y[kept], self.logits[kept], self.ids[kept])]
        for c in sorted(new):
            rows = np.flatnonzero(sb.y[: sb.size] == c)
            take = min(len(rows), quota[c] - kept_per_class[c])
            rows = np.sort(rng.choice(rows, size=take, replace=False))
            parts.append((sb.x[rows], sb.y[rows], sb.logits[rows], sb.ids[rows]))
        x, y, lg, ids = (np.concatenate(p) for p in zip(*parts))
        self.size = len(y)
        self.put(np.arange(self.size), x, y, lg, ids)
        self.seen += sb.size

    def state_dict(self) -> dict[str, np.ndarray]:
        return {**super().state_dict("em_"), "em_seen": np.array(self.seen)}

    def load_state_dict(self, state: dict[str, np.ndarray]) -> None:
        super().load_state_dict(state, "em_")
        self.seen = int(state["em_seen"])


class StreamBuffer(_SampleArrays):
    """The current task's samples in RAM (at most ``capacity``, chosen at random when the task is larger)."""

    def __init__(self, capacity: int, x_shape: tuple[int, ...], n_logits: int = 0, max_bytes: int | None = None) -> None:
        super().__init__(capacity, x_shape, n_logits, max_bytes, "stream buffer")

    def fill(self, x: np.ndarray, y: np.ndarray, ids: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Load a task's samples; returns the rows of the input that were kept (sorted)."""
        rows = np.arange(len(y))
        if len(rows) > self.capacity:
            rows = np.sort(rng.choice(rows, size=self.capacity, replace=False))
        self.size = len(rows)
        self.put(np.arange(self.size), x[rows], y[rows], None, ids[rows])
        self.logits[: self.size] = 0.0
        return rows

    def keep_only(self, rows: np.ndarray) -> None:
        """Drop every row not in ``rows`` (DDR-removed samples never reach EM or storage)."""
        rows = np.sort(np.asarray(rows, np.int64))
        x, y, lg, ids = self.x[rows], self.y[rows], self.logits[rows], self.ids[rows]
        self.size = len(rows)
        self.put(np.arange(self.size), x, y, lg, ids)

    def state_dict(self) -> dict[str, np.ndarray]:
        return super().state_dict("sb_")

    def load_state_dict(self, state: dict[str, np.ndarray]) -> None:
        super().load_state_dict(state, "sb_")


def swap_count(ratio: float, n_in_batch: int) -> int:
    """Miro's rule: ceil(swap_ratio * number of EM samples in the batch)."""
    return min(n_in_batch, math.ceil(ratio * n_in_batch - 1e-9))
