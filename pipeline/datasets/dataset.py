"""The in-memory dataset every loader returns, and the numpy steps applied to it before splitting.

Numpy-only (no torch): the same arrays are written to shards for the device.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np


@dataclass
class Dataset:
    """A labelled train/test pair. ``x_*`` are ``(N, *input_shape)``; labels are int64 in ``[0, num_classes)``.

    ``source`` says where the data came from (file or package path), for ``edgecl datasets`` and
    results. ``class_names`` index by label. ``mean``/``std`` are per-channel statistics applied by
    ``normalize`` (None until then), kept so the device can normalise new samples the same way.
    """

    name: str
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    input_shape: tuple[int, ...]
    num_classes: int
    source: str
    class_names: list[str] = field(default_factory=list)
    mean: np.ndarray | None = None
    std: np.ndarray | None = None
    # (C, T) series zero-padded at the end: each sample's real frames (None: no padding)
    lengths_train: np.ndarray | None = None
    lengths_test: np.ndarray | None = None

    def summary(self) -> str:
        return (f"{self.name}: {len(self.y_train)} train / {len(self.y_test)} test, "
                f"{self.num_classes} classes, sample shape {self.input_shape}")


def stratified_split(y: np.ndarray, test_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Train/test index arrays holding ``test_fraction`` of every class out (for sets without a test split)."""
    rng = np.random.default_rng(seed)
    train, test = [], []
    for c in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == c))
        n_test = max(1, int(round(test_fraction * len(idx)))) if len(idx) > 1 else 0
        test.append(idx[:n_test])
        train.append(idx[n_test:])
    return np.sort(np.concatenate(train)), np.sort(np.concatenate(test))


def cap_per_class(y: np.ndarray, cap: int, seed: int) -> np.ndarray:
    """Sorted indices keeping at most ``cap`` samples of each class (0 = keep all), chosen at random."""
    if cap <= 0:
        return np.arange(len(y))
    rng = np.random.default_rng(seed)
    keep = [rng.permutation(np.flatnonzero(y == c))[:cap] for c in np.unique(y)]
    return np.sort(np.concatenate(keep))


def subsample(ds: Dataset, max_train_per_class: int, max_test_per_class: int, seed: int) -> Dataset:
    """The dataset with per-class caps applied (quick runs, benches)."""
    tr = cap_per_class(ds.y_train, max_train_per_class, seed)
    te = cap_per_class(ds.y_test, max_test_per_class, seed + 1)
    return replace(ds, x_train=ds.x_train[tr], y_train=ds.y_train[tr], x_test=ds.x_test[te], y_test=ds.y_test[te],
                   lengths_train=None if ds.lengths_train is None else ds.lengths_train[tr],
                   lengths_test=None if ds.lengths_test is None else ds.lengths_test[te])


def channel_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel mean and std over every axis but axis 1 (flat features count as one channel each)."""
    axes = tuple(i for i in range(x.ndim) if i != 1) if x.ndim > 2 else (0,)
    mean = x.mean(axis=axes, dtype=np.float64)
    std = x.std(axis=axes, dtype=np.float64)
    return mean.astype(np.float32), np.where(std < 1e-6, 1.0, std).astype(np.float32)


def apply_stats(x: np.ndarray, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    """``(x - mean) / std`` broadcast per channel; float32 out."""
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return ((x.astype(np.float32) - mean.reshape(shape)) / std.reshape(shape)).astype(np.float32)


def normalize(ds: Dataset) -> Dataset:
    """Standardise with the training set's per-channel statistics (fixed dataset statistics, as
    mammoth does, rather than stats that change with each task)."""
    if ds.lengths_train is None:
        mean, std = channel_stats(ds.x_train.astype(np.float32))
        return replace(ds, x_train=apply_stats(ds.x_train, mean, std), x_test=apply_stats(ds.x_test, mean, std),
                       mean=mean, std=std)
    mean, std = padded_channel_stats(ds.x_train, ds.lengths_train)
    return replace(ds, x_train=_zero_padding(apply_stats(ds.x_train, mean, std), ds.lengths_train),
                   x_test=_zero_padding(apply_stats(ds.x_test, mean, std), ds.lengths_test), mean=mean, std=std)


def _frames_mask(lengths: np.ndarray, frames: int) -> np.ndarray:
    """(N, 1, T) True at each sample's real frames."""
    return (np.arange(frames)[None, :] < np.asarray(lengths)[:, None])[:, None, :]


def padded_channel_stats(x: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel mean and std of (N, C, T) series over their real frames only (the padding is no data)."""
    mask = np.broadcast_to(_frames_mask(lengths, x.shape[2]), x.shape)
    values = np.moveaxis(x, 1, 0)[np.moveaxis(mask, 1, 0)].reshape(x.shape[1], -1).astype(np.float64)
    mean, std = values.mean(axis=1), values.std(axis=1)
    return mean.astype(np.float32), np.where(std < 1e-6, 1.0, std).astype(np.float32)


def _zero_padding(x: np.ndarray, lengths: np.ndarray | None) -> np.ndarray:
    """Padding frames back to 0 after standardising: the training mean, i.e. no signal."""
    return x if lengths is None else np.where(_frames_mask(lengths, x.shape[2]), x, np.float32(0.0))
