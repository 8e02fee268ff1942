"""Shared by the export tests: small requests, random masks, the relative error they are judged by."""
from __future__ import annotations

import numpy as np

from pipeline.export import ExportRequest, prepare_model
from pipeline.export.reference import EagerReference, replay_batch

__all__ = ["EagerReference", "random_masks", "rel_err", "replay_batch", "small_request"]

SHAPES = {"cnn1d": (3, 16)}
IMAGE = (1, 8, 8)
CLASSES = 4


def small_request(kind: str, runtime: str, batch: int = 6, **kw) -> ExportRequest:
    kw.setdefault("width", 4)
    return ExportRequest(kind, SHAPES.get(kind, IMAGE), CLASSES, batch, runtime=runtime, hidden=(8, 8), lr=0.1, **kw)


def random_masks(req: ExportRequest, density: float = 0.5, seed: int = 1) -> dict[str, np.ndarray]:
    """Weight masks for every maskable layer of the request's model, ~``density`` kept."""
    prepared = prepare_model(req)
    rng = np.random.default_rng(seed)
    return {n: (rng.random(m.shape) < density).astype(np.float32) for n, m in prepared.masks.items()}


def rel_err(a: np.ndarray, b: np.ndarray) -> float:
    """||a - b|| / ||b|| (a tensor-level relative error; exact zero when both are zero)."""
    diff = float(np.linalg.norm(np.asarray(a, np.float64) - np.asarray(b, np.float64)))
    ref = float(np.linalg.norm(np.asarray(b, np.float64)))
    return diff / ref if ref > 0 else diff
