"""A user's own data (``data.kind = "arrays"`` or ``"ts"``): probed at spec time, loaded for a run.

``probe`` is cheap (array headers and labels only, or one parse of a ``.ts`` file) and gives the
sample shape and class count the spec checks the model against before anything runs.
``load_user_dataset`` returns a ``Dataset`` like every built-in loader: labels renumbered 0..K-1
(sorted values, or the ``@classLabel`` order of a ``.ts`` file; ``class_names`` keep the originals),
values divided by ``data.scale``, a stratified seeded test split when the files hold none.
``fingerprint`` hashes the files, so cached task shards follow edits to the data.
"""
from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from pipeline.datasets.arrays import peek, read_arrays
from pipeline.datasets.dataset import Dataset, stratified_split
from pipeline.datasets.ts_format import real_frames, read_ts, stack, ts_pair
from pipeline.errors import DataError

if TYPE_CHECKING:
    from pipeline.config import DataSpec

USER_KINDS = ("arrays", "ts")


@dataclass(frozen=True)
class UserDataShape:
    """What the spec checks against: one sample's shape, the classes, the split sizes."""

    input_shape: tuple[int, ...]
    num_classes: int
    class_names: tuple[str, ...]
    n_train: int
    n_test: int | None     # None: no test split in the files (one is drawn with data.test_fraction)
    source: str


def encode_labels(y_train: np.ndarray, y_test: np.ndarray | None, where: str,
                  order: list[str] | None = None) -> tuple[np.ndarray, np.ndarray | None, list[str]]:
    """Labels -> int64 0..K-1 and the K original values as names (``order`` fixes string labels' order)."""
    both = y_train if y_test is None else np.concatenate([np.asarray(y_train), np.asarray(y_test)])
    both = np.asarray(both)
    if both.dtype.kind == "f":
        if not np.isfinite(both).all() or not np.array_equal(both, np.round(both)):
            raise DataError(f"{where}: labels must be integers or strings, got non-integral floats")
        both = both.astype(np.int64)
    if both.dtype.kind not in "iuUS":
        raise DataError(f"{where}: labels must be integers or strings, got dtype {both.dtype}")
    if both.dtype.kind in "iu":
        values = np.unique(both)
        names = [str(int(v)) for v in values]
        index = {int(v): i for i, v in enumerate(values)}
        codes = np.array([index[int(v)] for v in both], np.int64)
    else:
        text = both.astype(str)
        names = list(order) if order else sorted(set(text.tolist()))
        index = {n: i for i, n in enumerate(names)}
        missing = sorted(set(text.tolist()) - set(index))
        if missing:
            raise DataError(f"{where}: labels {missing[:5]} are not among the declared classes {names}")
        codes = np.array([index[v] for v in text.tolist()], np.int64)
    n = len(y_train)
    return codes[:n], (None if y_test is None else codes[n:]), names


def _ts_files(data: "DataSpec"):
    train_path, test_path = ts_pair(data.path)
    train = read_ts(train_path)
    test = read_ts(test_path) if test_path is not None else None
    if test is not None and test.channels != train.channels:
        raise DataError(f"{test.path}: {test.channels} dimensions, {train.path.name} has {train.channels}")
    length = data.seq_len or max(train.max_length, test.max_length if test else 0)
    return train, test, length


def probe(data: "DataSpec") -> UserDataShape:
    """Shape and classes of ``data`` without loading the sample arrays (``DataError`` if unreadable)."""
    if data.path is None:
        raise DataError(f"data.path: kind {data.kind!r} needs the file or folder of your data")
    if data.kind == "ts":
        train, test, length = _ts_files(data)
        _, _, names = encode_labels(np.array(train.labels), None if test is None else np.array(test.labels),
                                    str(train.path), train.declared_labels)
        return UserDataShape((train.channels, length), len(names), tuple(names), len(train.series),
                             None if test is None else len(test.series), str(train.path))
    shapes, ys = peek(data.path, data.labels)
    _, _, names = encode_labels(ys["y_train"], ys.get("y_test"), str(data.path))
    n_test = shapes["x_test"][0] if "x_test" in shapes else None
    return UserDataShape(tuple(shapes["x_train"][1:]), len(names), tuple(names), shapes["x_train"][0], n_test,
                         str(data.path))


def load_user_dataset(data: "DataSpec", seed: int) -> Dataset:
    """The user's data as a ``Dataset`` (values / ``data.scale``; split drawn if the files hold none)."""
    if data.path is None:
        raise DataError(f"data.path: kind {data.kind!r} needs the file or folder of your data")
    len_tr = len_te = None
    if data.kind == "ts":
        train, test, length = _ts_files(data)
        _say_cropped(data, [train] + ([test] if test else []), length)
        x_tr, y_tr_raw, len_tr = stack(train, length), np.array(train.labels), real_frames(train, length)
        x_te, y_te_raw = (None, None) if test is None else (stack(test, length), np.array(test.labels))
        len_te = None if test is None else real_frames(test, length)
        order, name, source = train.declared_labels, train.header.get("problemname", train.path.stem), str(train.path)
    else:
        raw = read_arrays(data.path, data.labels)
        x_tr, y_tr_raw, x_te, y_te_raw = raw.x_train, raw.y_train, raw.x_test, raw.y_test
        order, name, source = None, Path(data.path).stem, raw.source
    y_tr, y_te, names = encode_labels(y_tr_raw, y_te_raw, source, order)
    x_tr = np.asarray(x_tr, np.float32) / np.float32(data.scale)
    if x_te is None:
        tr, te = stratified_split(y_tr, data.test_fraction, seed)
        x_tr, y_tr, x_te, y_te = x_tr[tr], y_tr[tr], x_tr[te], y_tr[te]
        len_tr, len_te = (None, None) if len_tr is None else (len_tr[tr], len_tr[te])
    else:
        x_te = np.asarray(x_te, np.float32) / np.float32(data.scale)
    padded = len_tr is not None and (np.any(len_tr < x_tr.shape[-1]) or np.any(len_te < x_te.shape[-1]))
    return Dataset(name, x_tr, y_tr, x_te, y_te, tuple(int(s) for s in x_tr.shape[1:]), len(names), source, names,
                   lengths_train=len_tr if padded else None, lengths_test=len_te if padded else None)


def _say_cropped(data: "DataSpec", files: list, length: int) -> None:
    """``data.seq_len`` shorter than some series crops their centre: said, with how many and the longest."""
    longest = max(f.max_length for f in files)
    if length < longest:
        n = sum(s.shape[1] > length for f in files for s in f.series)
        total = sum(len(f.series) for f in files)
        print(f"warning: data.seq_len = {length} crops {n} of {total} series to their centre (the longest has "
              f"{longest} frames); raise data.seq_len or leave it out to keep every frame", file=sys.stderr)


def data_files(data: "DataSpec") -> list[Path]:
    """Every file the user's data is read from."""
    if data.kind == "ts":
        return [p for p in ts_pair(data.path) if p is not None]
    from pipeline.datasets.arrays import locate

    return sorted({m.file for m in locate(data.path, data.labels).values()})


def fingerprint(data: "DataSpec") -> str:
    """sha256 over the data files' contents ("" for built-in datasets): part of the shard cache key."""
    if data.kind not in USER_KINDS or data.path is None:
        return ""
    h = hashlib.sha256()
    for path in data_files(data):
        h.update(str(path.resolve()).encode())
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                h.update(block)
    return h.hexdigest()[:16]
