"""Weight-mask arithmetic shared by TDM, DGM and the export's initial masks (numpy only).

A *unit* is one weight (unstructured, the paper) or, with ``structured``, one output channel (row
``c`` of a Linear / filter ``c`` of a conv). Keep counts are exact: ``keep_count(units, s) =
max(1, min(units, round((1 - s) * units)))``, so a layer hits its target and never dies.
"Stable top-k" keeps the k largest scores, ties going to the lower index (docs/semantics.md).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np


def keep_count(n_units: int, sparsity: float) -> int:
    """Units a layer keeps at ``sparsity`` (at least one)."""
    return max(1, min(n_units, int(round((1.0 - sparsity) * n_units))))


def n_units(shape: tuple[int, ...], structured: bool) -> int:
    return int(shape[0]) if structured else int(np.prod(shape))


def unit_scores(weight: np.ndarray, grad: np.ndarray | None, lam: float, structured: bool) -> np.ndarray:
    """Per unit ``double(|w|) + lam * double(|g|)`` (``|w|`` alone without a gradient), summed per channel
    when structured; float64, computed exactly as written."""
    score = np.abs(weight, dtype=np.float64)
    if grad is not None:
        score = score + float(lam) * np.abs(grad, dtype=np.float64)
    if structured:
        return score.reshape(score.shape[0], -1).sum(axis=1)
    return score.reshape(-1)


def stable_top_k(scores: np.ndarray, k: int, eligible: np.ndarray | None = None) -> np.ndarray:
    """Boolean mask of the ``k`` largest eligible scores (ties: lower index)."""
    s = np.asarray(scores, dtype=np.float64).copy()
    if eligible is not None:
        s[~eligible] = -np.inf
    order = np.argsort(-s, kind="stable")[:k]
    out = np.zeros(s.shape, dtype=bool)
    out[order] = True
    return out


def units_of(mask: np.ndarray, structured: bool) -> np.ndarray:
    """Weight-shaped 0/1 mask -> boolean live flag per unit."""
    m = np.asarray(mask) > 0
    return m.reshape(m.shape[0], -1)[:, 0] if structured else m.reshape(-1)


def expand_units(units: np.ndarray, shape: tuple[int, ...], structured: bool) -> np.ndarray:
    """Boolean unit flags -> float32 0/1 mask of the weight's shape."""
    if structured:
        return np.broadcast_to(units.reshape((-1,) + (1,) * (len(shape) - 1)), shape).astype(np.float32)
    return units.reshape(shape).astype(np.float32)


def magnitude_masks(weights: Mapping[str, np.ndarray], sparsity: float, structured: bool = False) -> dict[str, np.ndarray]:
    """Per-layer magnitude pruning to ``sparsity`` (the export's initial TDM masks)."""
    out = {}
    for name, w in weights.items():
        w = np.asarray(w)
        scores = unit_scores(w, None, 0.0, structured)
        out[name] = expand_units(stable_top_k(scores, keep_count(scores.size, sparsity)), w.shape, structured)
    return out


def unit_norm_factors(weight: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per output unit ``||w_row|| / ||w_row * mask_row||`` (1 where nothing or everything survives),
    shaped to broadcast over ``weight``: multiplied into the masked weight it restores each unit's norm
    (``sparcl.tdm_init_rescale``: a norm-free MLP has no BatchNorm to undo the shrink of a pruned init)."""
    w = np.asarray(weight, dtype=np.float64).reshape(weight.shape[0], -1)
    m = np.asarray(mask, dtype=np.float64).reshape(weight.shape[0], -1)
    dense = np.linalg.norm(w, axis=1)
    kept = np.linalg.norm(w * m, axis=1)
    factors = np.where(kept > 0, dense / np.where(kept > 0, kept, 1.0), 1.0)
    return factors.reshape((-1,) + (1,) * (np.ndim(weight) - 1)).astype(np.float32)
