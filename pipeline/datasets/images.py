"""Image loaders: scikit-learn digits, MNIST / Fashion-MNIST IDX files, CIFAR-10/100 python pickles.

Each returns a ``Dataset`` with float32 images in [0, 1] shaped (N, C, H, W). Missing, truncated or
malformed files raise a ``DataError`` naming the file.
"""
from __future__ import annotations

import io
import pickle
from pathlib import Path

import numpy as np

from pipeline.datasets.dataset import Dataset, stratified_split
from pipeline.datasets.idx import load_idx_split
from pipeline.errors import DataError

FASHION_MNIST_ROOT = Path("/usr/share/datasets/fashion-mnist")
FASHION_CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
                   "Ankle boot"]


def load_digits(test_fraction: float, seed: int) -> Dataset:
    """scikit-learn's bundled UCI optdigits (1797 8x8 images, values 0..16); stratified seeded test split."""
    from sklearn import datasets as skd

    bunch = skd.load_digits()
    x = (bunch.images.astype(np.float32) / 16.0)[:, None, :, :]
    y = bunch.target.astype(np.int64)
    tr, te = stratified_split(y, test_fraction, seed)
    source = str(Path(skd.__file__).parent / "data" / "digits.csv.gz")
    return Dataset("digits", x[tr], y[tr], x[te], y[te], (1, 8, 8), 10, source, [str(i) for i in range(10)])


def load_idx_images(name: str, root: Path) -> Dataset:
    """MNIST-style IDX files (``train-*`` and ``t10k-*``) from ``root``."""
    if not root.is_dir():
        hint = " (install Debian's dataset-fashion-mnist, or set data.root)" if name == "fashion_mnist" else ""
        raise DataError(f"{root}: {name} folder does not exist{hint}")
    x_tr, y_tr, src = load_idx_split(root, "train")
    x_te, y_te, _ = load_idx_split(root, "t10k")
    if x_tr.shape[1:] != x_te.shape[1:]:
        raise DataError(f"{root}: train images {x_tr.shape[1:]} and test images {x_te.shape[1:]} differ in shape")
    for y, split in ((y_tr, "train"), (y_te, "t10k")):
        if y.min() < 0 or y.max() > 9:
            raise DataError(f"{root}: {split} labels outside 0..9 (got {y.min()}..{y.max()})")
    h, w = x_tr.shape[1:]
    names = FASHION_CLASSES if name == "fashion_mnist" else [str(i) for i in range(10)]
    return Dataset(name, (x_tr.astype(np.float32) / 255.0)[:, None], y_tr, (x_te.astype(np.float32) / 255.0)[:, None],
                   y_te, (1, h, w), 10, str(src.parent), names)


class _NumpyOnlyUnpickler(pickle.Unpickler):
    """CIFAR batches hold only dicts, lists, bytes and numpy arrays: refuse any other global."""

    _ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
                ("numpy._core.multiarray", "scalar"), ("_codecs", "encode")}

    def find_class(self, module: str, name: str):
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"global {module}.{name} is not allowed in a CIFAR batch")
        return super().find_class(module, name)


def _load_pickle(path: Path) -> dict:
    if not path.is_file():
        raise DataError(f"{path}: missing CIFAR batch file")
    try:
        obj = _NumpyOnlyUnpickler(io.BytesIO(path.read_bytes()), encoding="bytes").load()
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, IndexError) as exc:
        raise DataError(f"{path}: not a readable CIFAR python pickle batch ({type(exc).__name__}: {exc})") from None
    if not isinstance(obj, dict):
        raise DataError(f"{path}: expected a dict in the CIFAR batch, got {type(obj).__name__}")
    return {k.decode() if isinstance(k, bytes) else k: v for k, v in obj.items()}


def _batch_arrays(path: Path, label_key: str) -> tuple[np.ndarray, np.ndarray]:
    d = _load_pickle(path)
    for key in ("data", label_key):
        if key not in d:
            raise DataError(f"{path}: CIFAR batch has no {key!r} entry (keys: {', '.join(map(str, d))})")
    data = np.asarray(d["data"])
    labels = np.asarray(d[label_key], dtype=np.int64)
    if data.ndim != 2 or data.shape[1] != 3072 or data.dtype != np.uint8:
        raise DataError(f"{path}: 'data' must be uint8 of shape (N, 3072), got {data.dtype} {data.shape}")
    if len(labels) != len(data):
        raise DataError(f"{path}: {len(labels)} labels for {len(data)} images")
    return data.reshape(-1, 3, 32, 32), labels


def _cifar_folder(root: Path, sub: str) -> Path:
    if (root / sub).is_dir():
        return root / sub
    if root.is_dir():
        return root
    raise DataError(f"{root}: CIFAR folder does not exist")


def load_cifar(name: str, root: Path) -> Dataset:
    """CIFAR-10 (``data_batch_1..5``, ``test_batch``, ``batches.meta``) or CIFAR-100 (``train``, ``test``, ``meta``)
    from ``root`` or its ``cifar-10-batches-py`` / ``cifar-100-python`` subfolder."""
    if name == "cifar10":
        folder = _cifar_folder(root, "cifar-10-batches-py")
        train_files = sorted(folder.glob("data_batch_*"))
        if not train_files:
            raise DataError(f"{folder}: no data_batch_* files (CIFAR-10 python version expected)")
        test_file, meta_file, label_key, meta_key, n_cls = folder / "test_batch", folder / "batches.meta", "labels", "label_names", 10
    else:
        folder = _cifar_folder(root, "cifar-100-python")
        train_files = [folder / "train"]
        test_file, meta_file, label_key, meta_key, n_cls = folder / "test", folder / "meta", "fine_labels", "fine_label_names", 100
    parts = [_batch_arrays(f, label_key) for f in train_files]
    x_tr, y_tr = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    x_te, y_te = _batch_arrays(test_file, label_key)
    for y, f in ((y_tr, train_files[0]), (y_te, test_file)):
        if y.min() < 0 or y.max() >= n_cls:
            raise DataError(f"{f}: labels outside 0..{n_cls - 1} (got {y.min()}..{y.max()})")
    names = [str(i) for i in range(n_cls)]
    if meta_file.is_file():
        meta = _load_pickle(meta_file)
        raw = meta.get(meta_key, [])
        if len(raw) == n_cls:
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in raw]
    return Dataset(name, x_tr.astype(np.float32) / 255.0, y_tr, x_te.astype(np.float32) / 255.0, y_te,
                   (3, 32, 32), n_cls, str(folder), names)
