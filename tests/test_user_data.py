"""Your own data: ``kind = "arrays"`` (.npz / .npy / a folder; N×F, N×C×T, N×C×H×W; 3 and 12 classes)
and ``kind = "ts"`` (UEA/UCR files: a real one vendored from sktime's wheel, and multivariate
unequal-length text), loaded exactly, checked against the model at spec time, bad files named."""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_digits

from pipeline.config import DataSpec, parse_spec
from pipeline.datasets import load_dataset
from pipeline.datasets.ts_format import read_ts
from pipeline.datasets.user_data import fingerprint, probe
from pipeline.errors import ConfigError, DataError
from pipeline.experiment_prep import data_digest

UNIT_TEST_TS = Path(__file__).parent / "data" / "ts" / "UnitTest"


def digits(classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Real optdigits images of the first ``classes`` digits: (N, 8, 8) values 0..16, labels."""
    bunch = load_digits()
    keep = bunch.target < classes
    return bunch.images[keep].astype(np.float32), bunch.target[keep].astype(np.int64)


def twelve_class_sequences(n_per_class: int = 12, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(N, 6, 40) sequences of 12 classes (a class-dependent sine in channel c % 6 plus noise)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(12), n_per_class)
    t = np.linspace(0, 1, 40, dtype=np.float32)
    x = rng.normal(0, 0.3, (len(y), 6, 40)).astype(np.float32)
    x[np.arange(len(y)), y % 6] += np.sin(2 * np.pi * (1 + y // 6)[:, None] * t)
    return x, y


def spec(tmp_path: Path, **data) -> DataSpec:
    return parse_spec({"data": {"kind": "arrays", "tasks": 1, "classes_per_task": 2, **data}}).data


def test_2d_features_three_classes_from_one_npz(tmp_path):
    x, y = digits(3)
    np.savez(tmp_path / "d.npz", x=x.reshape(len(x), 64), y=y)
    data = spec(tmp_path, path=str(tmp_path / "d.npz"), scale=16.0, normalize=False)
    ds = load_dataset(data, seed=0)
    assert ds.input_shape == (64,) and ds.num_classes == 3 and ds.class_names == ["0", "1", "2"]
    assert len(ds.y_train) + len(ds.y_test) == len(y)
    assert set(np.unique(ds.y_test)) == {0, 1, 2}                      # stratified test split drawn
    rows = {r.tobytes(): lab for r, lab in zip(x.reshape(len(x), 64) / np.float32(16.0), y)}
    assert all(rows[r.tobytes()] == lab for r, lab in zip(ds.x_train, ds.y_train))   # exact values and labels
    assert np.array_equal(load_dataset(data, seed=0).y_test, ds.y_test)


def test_3d_sequences_twelve_string_classes_from_a_folder(tmp_path):
    x, y = twelve_class_sequences()
    names = np.array([f"gesture-{k:02d}" for k in range(12)])
    folder = tmp_path / "seq"
    folder.mkdir()
    np.save(folder / "X_train.npy", x[::2])
    np.save(folder / "y_train.npy", names[y[::2]])
    np.save(folder / "X_test.npy", x[1::2])
    np.save(folder / "y_test.npy", names[y[1::2]])
    data = spec(tmp_path, path=str(folder), tasks=6, classes_per_task=2, normalize=False)
    ds = load_dataset(data, seed=0)
    assert ds.input_shape == (6, 40) and ds.num_classes == 12
    assert ds.class_names == sorted(names.tolist())
    assert np.array_equal(ds.x_train, x[::2]) and np.array_equal(ds.x_test, x[1::2])  # the files' own split
    assert np.array_equal(np.array(ds.class_names)[ds.y_train], names[y[::2]])
    assert probe(data).n_test == len(y[1::2])


def test_4d_images_with_split_and_normalisation(tmp_path):
    x, y = digits(3)
    x4 = x[:, None]
    np.savez(tmp_path / "img.npz", x_train=x4[:300], y_train=y[:300] + 5, x_test=x4[300:], y_test=y[300:] + 5)
    data = spec(tmp_path, path=str(tmp_path / "img.npz"), scale=16.0)
    ds = load_dataset(data, seed=0)
    assert ds.input_shape == (1, 8, 8) and ds.num_classes == 3
    assert ds.class_names == ["5", "6", "7"] and np.array_equal(ds.y_train, y[:300])   # renumbered 0..K-1
    scaled = x4[:300] / np.float32(16.0)
    assert np.allclose(ds.x_train, (scaled - scaled.mean()) / scaled.std(), atol=1e-5)  # one channel standardised
    assert ds.mean is not None and ds.mean.shape == (1,)


def test_one_npy_of_samples_with_its_labels_file(tmp_path):
    x, y = twelve_class_sequences(6)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "labels.npy", y)
    data = spec(tmp_path, path=str(tmp_path / "x.npy"), labels=str(tmp_path / "labels.npy"), normalize=False)
    ds = load_dataset(data, seed=0)
    assert ds.num_classes == 12 and len(ds.y_train) + len(ds.y_test) == len(y)
    with pytest.raises(ConfigError, match="set data.labels"):                     # at spec time
        spec(tmp_path, path=str(tmp_path / "x.npy"))


@pytest.mark.parametrize("arrays, match", [
    ({"samples": np.zeros((4, 3)), "labels": np.zeros(4)}, "expected arrays named x and y"),
    ({"x": np.zeros((4, 3)), "y": np.zeros(5)}, r"\(5,\) labels for 4 samples"),
    ({"x": np.zeros((4, 3, 2, 2, 2)), "y": np.zeros(4)}, "must be \\(N, F\\), \\(N, C, T\\) or \\(N, C, H, W\\)"),
    ({"x": np.full((4, 3), np.nan), "y": np.zeros(4)}, "12 values are NaN"),
    ({"x": np.zeros((4, 3)), "y": np.array([0.5, 1, 2, 3])}, "non-integral floats"),
    ({"x_train": np.zeros((4, 3)), "y_train": np.zeros(4), "x_test": np.zeros((2, 3))}, "only one of x_test / y_test"),
    ({"x_train": np.zeros((4, 3)), "y_train": np.zeros(4), "x_test": np.zeros((2, 4)), "y_test": np.zeros(2)},
     "test samples are \\(4,\\), training samples \\(3,\\)"),
    ({"x": np.zeros((4, 3)), "y": np.array(["a", 1, None, 2.5], dtype=object)}, "Python objects"),
    ({"x": np.zeros((4, 3), dtype=complex), "y": np.zeros(4)}, "samples must be numeric"),
])
def test_bad_arrays_are_named(tmp_path, arrays, match):
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(DataError, match=match) as info:
        load_dataset(DataSpec(kind="arrays", path=path), seed=0)
    assert str(path) in str(info.value)


def test_spec_time_checks_the_data_against_the_tasks_and_the_model(tmp_path):
    x, y = twelve_class_sequences(4)
    np.savez(tmp_path / "s.npz", x=x, y=y)
    path = str(tmp_path / "s.npz")
    with pytest.raises(ConfigError) as info:
        parse_spec({"data": {"kind": "arrays", "path": path, "tasks": 7, "classes_per_task": 2},
                    "model": {"kind": "small_cnn"}})
    text = str(info.value)
    assert "7 x 2 = 14 classes, but data.path" in text and "has 12" in text
    assert "model.kind: 'small_cnn' takes (channels, height, width) samples" in text and "(6, 40)" in text
    ok = parse_spec({"data": {"kind": "arrays", "path": path, "tasks": 6, "classes_per_task": 2},
                     "model": {"kind": "cnn1d"}})
    assert ok.data.path == Path(path)
    (p,) = pytest.raises(ConfigError, parse_spec, {"data": {"kind": "arrays", "path": str(tmp_path / "none.npz")}}).value.problems
    assert p.startswith("data.path: file or folder") and "does not exist" in p
    problems = pytest.raises(ConfigError, parse_spec, {"data": {"kind": "digits", "path": path, "scale": 2.0}}).value.problems
    assert any(q.startswith("data.path: only for your own data") for q in problems)
    assert any(q.startswith("data.scale: only for your own data") for q in problems)


def test_editing_the_files_changes_the_shard_cache_key(tmp_path):
    x, y = twelve_class_sequences(2)
    np.savez(tmp_path / "s.npz", x=x, y=y)
    s = parse_spec({"data": {"kind": "arrays", "path": str(tmp_path / "s.npz"), "tasks": 6}})
    before, fp = data_digest(s), fingerprint(s.data)
    assert data_digest(s) == before and len(fp) == 16
    np.savez(tmp_path / "s.npz", x=x + 1, y=y)
    assert fingerprint(s.data) != fp and data_digest(s) != before


def test_real_ts_file_from_sktimes_wheel():
    data = DataSpec(kind="ts", path=UNIT_TEST_TS, tasks=1, classes_per_task=2, normalize=False)
    ds = load_dataset(data, seed=0)
    assert ds.name == "UnitTest" and ds.input_shape == (1, 24) and ds.num_classes == 2
    assert (len(ds.y_train), len(ds.y_test)) == (20, 22) and ds.class_names == ["1", "2"]
    assert np.bincount(ds.y_train).tolist() == [10, 10]
    first = (UNIT_TEST_TS / "UnitTest_TRAIN.ts").read_text().split("@data")[1].strip().splitlines()[0]
    values, label = first.rsplit(":", 1)
    assert np.array_equal(ds.x_train[0, 0], np.array(values.split(","), np.float32)) and ds.class_names[ds.y_train[0]] == label
    assert probe(DataSpec(kind="ts", path=UNIT_TEST_TS / "UnitTest_TRAIN.ts")).n_test == 22


MULTI = """# a JapaneseVowels-like problem: 3 dimensions, unequal lengths, labels declared out of sorted order
@problemName Vowels3
@timeStamps false
@missing false
@univariate false
@dimensions 3
@equalLength false
@classLabel true b a c
@data
1,2,3:4,5,6:7,8,9:a
1,2:3,4:5,6:b
1,2,3,4,5:1,1,1,1,1:2,2,2,2,2:c
9:8:7:b
"""


def test_multivariate_unequal_lengths_are_padded_and_labels_keep_the_declared_order(tmp_path):
    (tmp_path / "Vowels3_TRAIN.ts").write_text(MULTI)
    ds = load_dataset(DataSpec(kind="ts", path=tmp_path, tasks=1, classes_per_task=3, normalize=False), seed=0)
    assert ds.input_shape == (3, 5) and ds.class_names == ["b", "a", "c"]
    x = np.concatenate([ds.x_train, ds.x_test])
    y = np.concatenate([ds.y_train, ds.y_test])
    row = x[y == 2][0]                                                   # the one 'c' case, full length
    assert np.array_equal(row, np.array([[1, 2, 3, 4, 5], [1] * 5, [2] * 5], np.float32))
    short = x[(y == 0) & (x[:, 0, 0] == 9)][0]                            # 'b' of length 1: zero-padded
    assert np.array_equal(short, np.array([[9, 0, 0, 0, 0], [8, 0, 0, 0, 0], [7, 0, 0, 0, 0]], np.float32))
    cropped = load_dataset(DataSpec(kind="ts", path=tmp_path, seq_len=3, tasks=1, classes_per_task=3,
                                    normalize=False), seed=0)
    assert cropped.input_shape == (3, 3)


@pytest.mark.parametrize("edit, match", [
    (lambda t: t.replace("9:8:7:b", "?:8:7:b"), "line 13: dimension 1 has missing"),
    (lambda t: t.replace("9:8:7:b", "9:8:b"), "line 13: 2 dimensions, the header says @dimensions 3"),
    (lambda t: t.replace("@timeStamps false", "@timeStamps true"), "time-stamped"),
    (lambda t: t.replace("@data\n", ""), "expected a '@key value' header line"),
    (lambda t: t.replace("9:8:7:b", "9:8:7:z"), r"labels \['z'\] are not in @classLabel"),
    (lambda t: t.replace("@classLabel true b a c", "@classLabel false"), "not a classification problem"),
    (lambda t: t.replace("1,2:3,4:5,6:b", "1,2:3:5,6:b"), "dimensions have different lengths"),
])
def test_bad_ts_files_are_named_with_the_line(tmp_path, edit, match):
    path = tmp_path / "Bad_TRAIN.ts"
    path.write_text(edit(MULTI))
    with pytest.raises(DataError, match=match) as info:
        read_ts(path)
    assert str(path) in str(info.value)


SKTIME_DATA = os.environ.get("EDGECL_SKTIME_DATA")   # sktime/datasets/data of an unpacked sktime wheel


@pytest.mark.skipif(not SKTIME_DATA, reason="set EDGECL_SKTIME_DATA to sktime/datasets/data of an unpacked sktime "
                                            "wheel (pip download sktime --no-deps) to read BasicMotions/JapaneseVowels")
@pytest.mark.parametrize("name, shape, classes, sizes", [
    ("BasicMotions", (6, 100), 4, (40, 40)), ("JapaneseVowels", (12, 29), 9, (270, 370))])
def test_uea_sets_from_the_sktime_wheel(name, shape, classes, sizes):
    ds = load_dataset(DataSpec(kind="ts", path=Path(SKTIME_DATA) / name, tasks=1, classes_per_task=2,
                               normalize=False), seed=0)
    assert ds.input_shape == shape and ds.num_classes == classes and (len(ds.y_train), len(ds.y_test)) == sizes


def test_padding_is_left_out_of_the_standardisation_and_stays_zero(tmp_path):
    """Unequal-length series: mean/std over the real frames only, and the padding reads 0 (the mean) after."""
    (tmp_path / "Vowels3_TRAIN.ts").write_text(MULTI)
    spec = DataSpec(kind="ts", path=tmp_path, tasks=1, classes_per_task=3, test_fraction=0.25)
    raw, ds = load_dataset(replace(spec, normalize=False), seed=0), load_dataset(spec, seed=0)
    real = np.arange(5)[None, :] < ds.lengths_train[:, None]
    values = raw.x_train.transpose(1, 0, 2)[:, real]                          # (C, real frames of all samples)
    assert np.allclose(ds.mean, values.mean(axis=1)) and np.allclose(ds.std, values.std(axis=1))
    assert np.all(ds.x_train.transpose(1, 0, 2)[:, ~real] == 0.0)
    assert np.allclose(ds.x_train.transpose(1, 0, 2)[:, real], (values - ds.mean[:, None]) / ds.std[:, None])


def test_a_seq_len_shorter_than_a_series_is_said(tmp_path, capsys):
    (tmp_path / "Vowels3_TRAIN.ts").write_text(MULTI)
    load_dataset(DataSpec(kind="ts", path=tmp_path, seq_len=3, tasks=1, classes_per_task=3), seed=0)
    err = capsys.readouterr().err
    assert "data.seq_len = 3 crops 1 of 4 series to their centre (the longest has 5 frames)" in err
    load_dataset(DataSpec(kind="ts", path=tmp_path, tasks=1, classes_per_task=3), seed=0)
    assert "crops" not in capsys.readouterr().err
