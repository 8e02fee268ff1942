"""Epoch batching on index arrays (numpy-only, shared by the host trainer and the device runner)."""
from __future__ import annotations

import numpy as np


def epoch_batches(indices: np.ndarray, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """A shuffled pass over ``indices`` in batches of ``batch_size`` (the last one may be smaller)."""
    order = rng.permutation(np.asarray(indices, np.int64))
    return [order[i:i + batch_size] for i in range(0, len(order), batch_size)]


def iterations_per_epoch(n_samples: int, batch_size: int) -> int:
    return -(-n_samples // batch_size)
