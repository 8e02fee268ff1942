"""The replay buffer with mammoth's reservoir semantics, on numpy arrays (no torch).

The host trainer and the device runner share it: every sample seen is offered once (``add``); while
the buffer has room it is stored, afterwards the n-th sample replaces a random slot with probability
capacity / n, so the buffer stays a uniform sample of the stream. It stores un-augmented inputs,
labels, the task id and (DER/DER++) the logits the model produced when the sample was seen.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def reservoir_slot(num_seen: int, capacity: int, rng: np.random.Generator) -> int:
    """Slot for the next sample given ``num_seen`` before it, or -1 to drop it (mammoth's ``reservoir``)."""
    if num_seen < capacity:
        return num_seen
    slot = int(rng.integers(0, num_seen + 1))
    return slot if slot < capacity else -1


@dataclass
class BufferDraw:
    """A replay draw; ``logits`` is None when the buffer does not keep them."""

    x: np.ndarray
    y: np.ndarray
    logits: np.ndarray | None
    task: np.ndarray
    slots: np.ndarray


class ReservoirBuffer:
    """Fixed-capacity reservoir buffer; arrays are allocated on the first ``add`` from its shapes."""

    def __init__(self, capacity: int, rng: np.random.Generator | int = 0, keep_logits: bool = False) -> None:
        self.capacity = int(capacity)
        self.keep_logits = keep_logits
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self.num_seen = 0
        self.x: np.ndarray | None = None
        self.y = np.zeros(self.capacity, np.int64)
        self.task = np.zeros(self.capacity, np.int64)
        self.logits: np.ndarray | None = None

    def __len__(self) -> int:
        return min(self.num_seen, self.capacity)

    def is_empty(self) -> bool:
        return len(self) == 0

    def add(self, x: np.ndarray, y: np.ndarray, task: int | np.ndarray, logits: np.ndarray | None = None) -> np.ndarray:
        """Offer a batch, sample by sample in order; return the slot each went to (-1 = not kept)."""
        if self.keep_logits and logits is None:
            raise ValueError("this buffer keeps logits (DER/DER++): pass the logits of the batch")
        n = len(y)
        tasks = np.broadcast_to(np.asarray(task, np.int64), (n,))
        if self.x is None and self.capacity > 0:
            self.x = np.zeros((self.capacity, *x.shape[1:]), np.float32)
            if self.keep_logits:
                self.logits = np.zeros((self.capacity, logits.shape[1]), np.float32)
        slots = np.full(n, -1, np.int64)
        for i in range(n):
            slot = reservoir_slot(self.num_seen, self.capacity, self.rng)
            self.num_seen += 1
            if slot < 0:
                continue
            slots[i] = slot
            self.x[slot] = x[i]
            self.y[slot] = y[i]
            self.task[slot] = tasks[i]
            if self.logits is not None:
                self.logits[slot] = logits[i]
        return slots

    def sample(self, size: int) -> BufferDraw:
        """``size`` distinct stored samples drawn uniformly (fewer if the buffer holds fewer)."""
        n = len(self)
        choice = self.rng.choice(n, size=min(size, n), replace=False) if n else np.zeros(0, np.int64)
        assert self.x is not None or not n
        x = self.x[choice] if self.x is not None else np.zeros((0,), np.float32)
        logits = self.logits[choice] if self.logits is not None else None
        return BufferDraw(x, self.y[choice], logits, self.task[choice], choice)

    def class_counts(self, num_classes: int) -> np.ndarray:
        """How many stored samples each class has."""
        return np.bincount(self.y[: len(self)], minlength=num_classes)

    def state_dict(self) -> dict:
        """Arrays and counters to checkpoint (the RNG state included, so a resumed run draws the same)."""
        return {"capacity": self.capacity, "num_seen": self.num_seen, "x": self.x, "y": self.y, "task": self.task,
                "logits": self.logits, "rng": self.rng.bit_generator.state}

    def load_state_dict(self, state: dict) -> None:
        self.capacity, self.num_seen = int(state["capacity"]), int(state["num_seen"])
        self.x, self.y, self.task, self.logits = state["x"], state["y"], state["task"], state["logits"]
        self.rng.bit_generator.state = state["rng"]
