"""TDM's binary weight masks over the masked layers, numpy only (host trainer and device runner).

A ``MaskSet`` keeps one boolean mask per layer over *units*: single weights (unstructured, the
paper) or whole output channels (structured: row ``c`` of a Linear / filter ``c`` of a conv, so an
exporter can physically delete the channel). Keep counts are exact: a layer at sparsity ``s`` keeps
``max(1, round((1 - s) * units))`` units, so every layer hits its target and none dies.

* ``init_magnitude``: per-layer magnitude pruning of the current weights (the random init).
* ``unit_norm_factors`` (optional, ``tdm_init_rescale``): per output unit, the factor that gives the
  pruned init back its dense L2 norm. The paper's masked convs are each followed by BatchNorm, so the
  shrunken pre-activations of a pruned init do not matter there; a norm-free MLP has no such
  invariance (at 0.90 each pruned layer shrinks its outputs ~2x), and this restores the scale.
* ``update``: TDM's drop then grow. Drop keeps the top live units by ``|w| + lambda * |grad|``
  (channel L1 of that score when structured), ``grad`` being the previous batch's gradient of the
  total loss; grow turns random dead units back on. It returns per layer the *survivor* mask
  (live before and after, weight-shaped) that the caller multiplies into the weights, so dropped
  weights become 0 and grown ones start at exactly 0 (zero init).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np


def keep_count(n_units: int, sparsity: float) -> int:
    """Units a layer keeps at ``sparsity`` (at least one)."""
    return max(1, min(n_units, int(round((1.0 - sparsity) * n_units))))


def unit_scores(weight: np.ndarray, grad: np.ndarray | None, lam: float, structured: bool) -> np.ndarray:
    """Importance per unit: ``|w| + lam * |grad|``, summed per output channel when structured."""
    score = np.abs(weight, dtype=np.float64)
    if grad is not None and lam:
        score = score + lam * np.abs(grad, dtype=np.float64)
    if structured:
        return score.reshape(score.shape[0], -1).sum(axis=1)
    return score.reshape(-1)


def top_k(scores: np.ndarray, k: int, eligible: np.ndarray | None = None) -> np.ndarray:
    """Boolean mask of the ``k`` best-scoring eligible entries (ties broken by lower index)."""
    s = scores.astype(np.float64, copy=True)
    if eligible is not None:
        s[~eligible] = -np.inf
    order = np.argsort(-s, kind="stable")[:k]
    out = np.zeros(s.shape, dtype=bool)
    out[order] = True
    return out


def expand_units(units: np.ndarray, shape: tuple[int, ...], structured: bool) -> np.ndarray:
    """Unit mask -> float32 mask of the weight's shape."""
    if structured:
        return np.broadcast_to(units.reshape((-1,) + (1,) * (len(shape) - 1)), shape).astype(np.float32)
    return units.reshape(shape).astype(np.float32)


def unit_norm_factors(weight: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per output unit ``||w_row|| / ||w_row * mask_row||`` (1 where nothing or everything survives),
    shaped to broadcast over ``weight``: multiply it into the masked weight to restore each unit's norm."""
    w = np.asarray(weight, dtype=np.float64).reshape(weight.shape[0], -1)
    m = np.asarray(mask, dtype=np.float64).reshape(weight.shape[0], -1)
    dense = np.linalg.norm(w, axis=1)
    kept = np.linalg.norm(w * m, axis=1)
    factors = np.where(kept > 0, dense / np.where(kept > 0, kept, 1.0), 1.0)
    return factors.reshape((-1,) + (1,) * (np.ndim(weight) - 1)).astype(np.float32)


class MaskSet:
    """Masks of the TDM layers; ``shapes`` maps layer name -> weight shape (output channels first)."""

    def __init__(self, shapes: Mapping[str, tuple[int, ...]], structured: bool = False, seed: int = 0) -> None:
        self.shapes = {k: tuple(int(d) for d in v) for k, v in shapes.items()}
        self.structured = structured
        self.rng = np.random.default_rng(seed)
        self.units: dict[str, np.ndarray] = {}

    def n_units(self, name: str) -> int:
        shape = self.shapes[name]
        return shape[0] if self.structured else int(np.prod(shape))

    @property
    def initialized(self) -> bool:
        return bool(self.units)

    def init_magnitude(self, weights: Mapping[str, np.ndarray], sparsity: float) -> None:
        """Per-layer magnitude pruning to ``sparsity``."""
        for name in self.shapes:
            scores = unit_scores(np.asarray(weights[name]), None, 0.0, self.structured)
            self.units[name] = top_k(scores, keep_count(scores.size, sparsity))

    def update(
        self,
        weights: Mapping[str, np.ndarray],
        grads: Mapping[str, np.ndarray] | None,
        drop_to: float,
        grow_to: float,
        lam: float,
    ) -> dict[str, np.ndarray]:
        """Drop to ``drop_to`` sparsity by importance, grow randomly to ``grow_to``; return survivor masks."""
        survivors = {}
        for name in self.shapes:
            old = self.units[name]
            grad = None if grads is None else grads.get(name)
            scores = unit_scores(np.asarray(weights[name]), grad, lam, self.structured)
            k_drop = keep_count(old.size, drop_to)
            kept = top_k(scores, k_drop, eligible=old) if old.sum() > k_drop else old.copy()
            new = kept.copy()
            n_grow = keep_count(old.size, grow_to) - int(new.sum())
            if n_grow > 0:
                dead = np.flatnonzero(~new)
                new[self.rng.choice(dead, size=min(n_grow, dead.size), replace=False)] = True
            self.units[name] = new
            survivors[name] = expand_units(kept, self.shapes[name], self.structured)
        return survivors

    def weight_mask(self, name: str) -> np.ndarray:
        """Float32 0/1 mask of the layer's weight shape."""
        return expand_units(self.units[name], self.shapes[name], self.structured)

    def weight_masks(self) -> dict[str, np.ndarray]:
        return {name: self.weight_mask(name) for name in self.shapes}

    def density(self, name: str) -> float:
        """Share of the layer's weights kept (for structured masks, the kept channels' share)."""
        return float(self.units[name].mean())

    def densities(self) -> dict[str, float]:
        return {name: self.density(name) for name in self.units}

    def state_dict(self) -> dict:
        return {
            "structured": self.structured,
            "units": {k: v.copy() for k, v in self.units.items()},
            "rng": self.rng.bit_generator.state,
        }

    def load_state_dict(self, state: Mapping) -> None:
        if bool(state["structured"]) != self.structured:
            raise ValueError(f"mask state is structured={state['structured']}, expected structured={self.structured}")
        units = {k: np.asarray(v, dtype=bool) for k, v in state["units"].items()}
        for name, u in units.items():
            if name not in self.shapes or u.size != self.n_units(name):
                raise ValueError(f"mask state for layer {name!r} does not match the model ({u.size} units)")
        missing = set(self.shapes) - set(units)
        if missing:
            raise ValueError(f"mask state lacks layers {sorted(missing)}")
        self.units = {k: u.reshape(-1) for k, u in units.items()}
        self.rng.bit_generator.state = state["rng"]
