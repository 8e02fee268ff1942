"""DGM's gradient masks (docs/semantics.md 9), numpy only.

Due when no masks are set (task start, after a TDM update, a session without restored masks) or
``steps_since_refresh >= period``. A refresh, per masked layer, from this step's RAW gradient:
among live weights (weight mask 1) keep ``n_live - round(ratio * n_live)`` by stable top-k of
``double(|g|)``; ``steps_since_refresh`` restarts at 0 and every step adds 1.

**Ratio choice.** ``ratio`` is the share of the *surviving* weights whose gradient is masked: a
layer at weight sparsity ``s`` gets gradient density ``(1 - s) * (1 - ratio)``. SparCL's reference
takes the 80th percentile of |grad| over *all* positions (pruned zeros included), which at
s = 0.75 keeps 80% of the survivors (``ratio = 0.2`` here) and is a no-op at s >= 0.80; defining
the ratio on survivors keeps that behaviour at 0.75 and still masks gradients at 0.90 / 0.95.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from android_harness.device.sparcl.masks import stable_top_k


def gradient_mask(grad: np.ndarray, weight_mask: np.ndarray | None, ratio: float) -> np.ndarray:
    """Float32 0/1 mask keeping the top ``1 - ratio`` of the live weights by |grad|."""
    g = np.abs(np.asarray(grad), dtype=np.float64).reshape(-1)
    live = np.ones(g.size, dtype=bool) if weight_mask is None else np.asarray(weight_mask).reshape(-1) > 0
    n_live = int(live.sum())
    keep = n_live - int(round(ratio * n_live))
    return stable_top_k(g, keep, eligible=live).astype(np.float32).reshape(np.shape(grad))


class DgmState:
    """The current gradient masks (``None`` = not set) and the steps since they were computed."""

    def __init__(self, ratio: float, period: int) -> None:
        if not 0.0 <= ratio < 1.0:
            raise ValueError(f"dgm ratio must be in [0, 1), got {ratio}")
        self.ratio, self.period = float(ratio), int(period)
        self.masks: dict[str, np.ndarray] | None = None
        self.steps_since_refresh = 0

    def clear(self) -> None:
        self.masks = None

    def due(self) -> bool:
        return self.masks is None or self.steps_since_refresh >= self.period

    def refresh(self, grads: Mapping[str, np.ndarray], weight_masks: Mapping[str, np.ndarray], order: list[str]) -> None:
        self.masks = {n: gradient_mask(grads[n], weight_masks[n], self.ratio) for n in order}
        self.steps_since_refresh = 0

    def tick(self) -> None:
        self.steps_since_refresh += 1

    def densities(self) -> dict[str, float]:
        return {n: float(m.mean()) for n, m in (self.masks or {}).items()}
