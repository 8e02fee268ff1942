"""Shard files: round trip, every kind of damage named by file and record, and no torch on import."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from android_harness.device.shards import read_header, read_records, read_shard, write_shard
from pipeline.errors import DataError


@pytest.fixture
def shard(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(12, 1, 8, 8)).astype(np.float32)
    y = rng.integers(0, 10, 12)
    path = tmp_path / "t.shard"
    write_shard(path, x, y, {"task": 3})
    return path, x, y


def test_round_trip(shard):
    path, x, y = shard
    x2, y2, hdr = read_shard(path)
    assert np.array_equal(x, x2) and np.array_equal(y, y2) and x2.dtype == np.float32
    assert hdr.count == 12 and hdr.sample_shape == (1, 8, 8) and hdr.meta == {"task": 3}
    assert path.stat().st_size == hdr.data_offset + 12 * hdr.record_size
    assert hdr.record_size == 8 + 64 * 4 + 4
    assert not list(path.parent.glob("*.tmp"))


def test_uint8_and_random_access(tmp_path):
    x = np.arange(5 * 6, dtype=np.uint8).reshape(5, 6)
    write_shard(tmp_path / "u.shard", x, np.arange(5))
    xs, ys = read_records(tmp_path / "u.shard", np.array([4, 0, 2]))
    assert np.array_equal(xs, x[[4, 0, 2]]) and ys.tolist() == [4, 0, 2]
    with pytest.raises(DataError, match="out of range"):
        read_records(tmp_path / "u.shard", np.array([5]))


def test_flipped_byte_in_record_names_file_and_record(shard):
    path, _, _ = shard
    hdr = read_header(path)
    raw = bytearray(path.read_bytes())
    raw[hdr.data_offset + 7 * hdr.record_size + 20] ^= 0x10
    path.write_bytes(bytes(raw))
    with pytest.raises(DataError, match=r"t\.shard: record 7 checksum mismatch"):
        read_shard(path)
    with pytest.raises(DataError, match="record 7"):
        read_records(path, np.array([7]))
    read_records(path, np.array([6, 8]))  # untouched records still read


def test_flipped_byte_in_header(shard):
    path, _, _ = shard
    raw = bytearray(path.read_bytes())
    raw[25] ^= 0x01
    path.write_bytes(bytes(raw))
    with pytest.raises(DataError, match=r"t\.shard: header checksum mismatch"):
        read_shard(path)


def test_truncation_names_first_incomplete_record(shard):
    path, _, _ = shard
    hdr = read_header(path)
    path.write_bytes(path.read_bytes()[: hdr.data_offset + 9 * hdr.record_size + 5])
    with pytest.raises(DataError, match=r"t\.shard: truncated at record 9 of 12"):
        read_shard(path)
    path.write_bytes(path.read_bytes()[:10])
    with pytest.raises(DataError, match="truncated shard prefix"):
        read_shard(path)


def test_trailing_bytes_and_wrong_magic(shard, tmp_path):
    path, _, _ = shard
    path.write_bytes(path.read_bytes() + b"xx")
    with pytest.raises(DataError, match="2 unexpected bytes"):
        read_shard(path)
    other = tmp_path / "o.shard"
    other.write_bytes(b"NOTSHARD" + bytes(40))
    with pytest.raises(DataError, match="not an edgecl shard"):
        read_shard(other)
    with pytest.raises(DataError, match="cannot read shard"):
        read_shard(tmp_path / "missing.shard")


def test_bad_inputs_rejected(tmp_path):
    with pytest.raises(DataError, match="need x"):
        write_shard(tmp_path / "a.shard", np.zeros((3, 2)), np.zeros(2))


def test_shard_and_result_modules_do_not_import_torch():
    code = ("import sys; import android_harness.device.shards, pipeline.datasets.task_shards, "
            "android_harness.device.metrics, pipeline.cl.results; "
            "bad = [m for m in ('torch', 'sklearn') if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_empty_shard(tmp_path):
    write_shard(tmp_path / "e.shard", np.zeros((0, 3), np.float32), np.zeros(0, np.int64))
    x, y, hdr = read_shard(tmp_path / "e.shard")
    assert x.shape == (0, 3) and hdr.count == 0
    assert read_records(tmp_path / "e.shard", np.zeros(0, np.int64))[0].shape == (0, 3)
