"""Reader for the IDX format of MNIST and Fashion-MNIST (``*-idx3-ubyte[.gz]``, ``*-idx1-ubyte[.gz]``).

IDX: two zero bytes, a type code (0x08 = uint8), the number of dimensions, then one big-endian
uint32 per dimension, then the data. Any mismatch is a ``DataError`` naming the file.
"""
from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import numpy as np

from pipeline.errors import DataError

_TYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
          0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def _read_bytes(path: Path) -> bytes:
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as fh:
                return fh.read()
        return path.read_bytes()
    except (OSError, EOFError, zlib.error) as exc:
        raise DataError(f"{path}: cannot read IDX file ({exc})") from None


def read_idx(path: str | Path) -> np.ndarray:
    """The array stored in one IDX file (gzipped or not)."""
    path = Path(path)
    raw = _read_bytes(path)
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _TYPES:
        raise DataError(f"{path}: not an IDX file (bad magic {raw[:4].hex() or 'empty'})")
    dtype, ndim = np.dtype(_TYPES[raw[2]]), raw[3]
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise DataError(f"{path}: truncated IDX header ({len(raw)} bytes, need {header})")
    dims = tuple(int(d) for d in np.frombuffer(raw, ">u4", count=ndim, offset=4))
    expected = header + int(np.prod(dims)) * dtype.itemsize
    if len(raw) != expected:
        raise DataError(f"{path}: IDX size {len(raw)} bytes, expected {expected} for shape {dims} "
                        f"({'truncated' if len(raw) < expected else 'trailing bytes'})")
    return np.frombuffer(raw, dtype, offset=header).reshape(dims).astype(dtype.newbyteorder("="))


def find_idx(folder: Path, stem: str) -> Path:
    """``folder/stem`` with or without ``.gz``; a ``DataError`` listing what was looked for if absent."""
    for name in (stem, stem + ".gz"):
        if (folder / name).is_file():
            return folder / name
    raise DataError(f"{folder}: missing {stem}[.gz] (expected the IDX files of MNIST / Fashion-MNIST here)")


def load_idx_split(folder: Path, prefix: str) -> tuple[np.ndarray, np.ndarray, Path]:
    """Images and labels of one split (``prefix`` = ``train`` or ``t10k``), checked to match in length."""
    img_path = find_idx(folder, f"{prefix}-images-idx3-ubyte")
    lab_path = find_idx(folder, f"{prefix}-labels-idx1-ubyte")
    x, y = read_idx(img_path), read_idx(lab_path)
    if x.ndim != 3:
        raise DataError(f"{img_path}: expected 3 dimensions (N, H, W), got shape {x.shape}")
    if y.ndim != 1 or len(y) != len(x):
        raise DataError(f"{lab_path}: {len(y)} labels for {len(x)} images in {img_path.name}")
    return x, y.astype(np.int64), img_path
