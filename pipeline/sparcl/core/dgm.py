"""DGM's per-layer gradient masks, numpy only.

Every ``period`` iterations, per masked layer, the mask keeps the largest-|grad| weights and
zeroes the gradient of the rest; the pattern is reused until the next refresh (and refreshed early
whenever the TDM weight mask changes, so freshly grown weights can learn at once).

**Ratio choice.** ``ratio`` is the share of the *surviving* (unpruned) weights of the layer whose
gradient is masked, i.e. a layer at weight sparsity ``s`` gets gradient density
``(1 - s) * (1 - ratio)``. The reference takes the 80th percentile of |grad| over *all* positions,
pruned zeros included, which at s = 0.75 keeps 20% of all = 80% of the survivors (ratio 0.2 here)
and is a no-op at s >= 0.80. Defining the ratio on survivors keeps the reference's 0.75 behaviour
(``dgm_ratio = 0.2``) and still masks gradients at 0.90 / 0.95. Exact counts: a layer with ``m``
survivors masks ``round(ratio * m)`` of them (ties: lower index kept).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np


def gradient_mask(grad: np.ndarray, weight_mask: np.ndarray | None, ratio: float) -> np.ndarray:
    """Float32 0/1 mask keeping the top ``1 - ratio`` of surviving weights by |grad|."""
    g = np.abs(np.asarray(grad, dtype=np.float64)).reshape(-1)
    alive = np.ones(g.size, dtype=bool) if weight_mask is None else np.asarray(weight_mask).reshape(-1) > 0
    n_alive = int(alive.sum())
    keep = n_alive - int(round(ratio * n_alive))
    score = np.where(alive, g, -np.inf)
    order = np.argsort(-score, kind="stable")[:keep]
    out = np.zeros(g.size, dtype=np.float32)
    out[order] = 1.0
    return out.reshape(np.shape(grad))


class GradientMasker:
    """Holds the current gradient masks and decides when to refresh them."""

    def __init__(self, ratio: float, period: int) -> None:
        if not 0.0 <= ratio < 1.0:
            raise ValueError(f"dgm ratio must be in [0, 1), got {ratio}")
        self.ratio, self.period = float(ratio), int(period)
        self.masks: dict[str, np.ndarray] = {}
        self._densities: dict[str, float] = {}
        self.steps_since_refresh = 0

    def invalidate(self) -> None:
        """Force a refresh at the next step (the weight masks changed)."""
        self.masks, self._densities = {}, {}

    def due(self) -> bool:
        """True when the next step must recompute the masks."""
        return not self.masks or self.steps_since_refresh >= self.period

    def refresh(self, grads: Mapping[str, np.ndarray], weight_masks: Mapping[str, np.ndarray] | None) -> None:
        """Recompute every layer's mask from this step's gradients."""
        self.masks = {
            name: gradient_mask(g, None if weight_masks is None else weight_masks.get(name), self.ratio)
            for name, g in grads.items()
        }
        self._densities = {name: float(m.mean()) for name, m in self.masks.items()}
        self.steps_since_refresh = 0

    def tick(self) -> None:
        """One step used the current masks."""
        self.steps_since_refresh += 1

    def step(self, grads: Mapping[str, np.ndarray], weight_masks: Mapping[str, np.ndarray] | None) -> dict[str, np.ndarray]:
        """Masks to multiply into this step's gradients (refreshing them when due)."""
        if self.due():
            self.refresh(grads, weight_masks)
        self.tick()
        return self.masks

    def densities(self) -> dict[str, float]:
        """Share of each layer's weights whose gradient passes (cached at refresh)."""
        return self._densities

    def state_dict(self) -> dict:
        return {"masks": {k: v.copy() for k, v in self.masks.items()}, "steps_since_refresh": self.steps_since_refresh}

    def load_state_dict(self, state: Mapping) -> None:
        self.masks = {k: np.asarray(v, dtype=np.float32).copy() for k, v in state.get("masks", {}).items()}
        self._densities = {name: float(m.mean()) for name, m in self.masks.items()}
        self.steps_since_refresh = int(state.get("steps_since_refresh", 0))
