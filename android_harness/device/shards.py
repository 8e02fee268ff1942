"""The sample shard file: what the host writes and the device reads, with NO torch (stdlib + numpy only).

Layout (all little-endian)::

    prefix   8s magic b"EDGECLSH" | u32 version | u32 header_len | u32 crc32(header)
    header   header_len bytes of UTF-8 JSON: count, sample_shape, dtype, label_dtype, record_size, meta
    records  count x record_size bytes, each: i64 label | sample bytes (dtype, sample_shape) | u32 crc32

Every record carries a CRC-32 of its label and sample bytes, and the header its own, so a flipped
byte or a truncated copy (a cut USB push) is a ``DataError`` naming the file and the record.
Files are written to a temporary name and renamed, so a reader never sees half a shard.
"""
from __future__ import annotations

import json
import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.errors import DataError

MAGIC = b"EDGECLSH"
VERSION = 1
_PREFIX = struct.Struct("<8sIII")
_LABEL = np.dtype("<i8")
_CRC = np.dtype("<u4")
MAX_HEADER = 1 << 20


@dataclass
class ShardHeader:
    """Describes every record of a shard; ``data_offset`` is where record 0 starts."""

    count: int
    sample_shape: tuple[int, ...]
    dtype: str
    record_size: int
    data_offset: int
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def record_dtype(self) -> np.dtype:
        return _record_dtype(np.dtype(self.dtype), self.sample_shape)


def _record_dtype(sample: np.dtype, shape: tuple[int, ...]) -> np.dtype:
    return np.dtype([("label", _LABEL), ("x", sample.newbyteorder("<"), shape), ("crc", _CRC)])


def write_shard(path: str | Path, x: np.ndarray, y: np.ndarray, meta: dict[str, Any] | None = None) -> ShardHeader:
    """Write samples ``x`` (N, *shape) with integer labels ``y`` (N,) atomically; return the header."""
    path = Path(path)
    x = np.ascontiguousarray(x)
    y = np.asarray(y)
    if x.ndim < 1 or len(x) != len(y) or y.ndim != 1:
        raise DataError(f"{path}: need x (N, ...) and y (N,), got {x.shape} and {y.shape}")
    if x.dtype.kind not in "fiub":
        raise DataError(f"{path}: sample dtype {x.dtype} cannot be stored (numeric only)")
    sample = x.dtype.newbyteorder("<")
    rec_dtype = _record_dtype(sample, tuple(x.shape[1:]))
    records = np.zeros(len(x), rec_dtype)
    records["label"] = y.astype(np.int64)
    records["x"] = x
    body = records.view(np.uint8).reshape(len(x), rec_dtype.itemsize)
    records["crc"] = [zlib.crc32(row[:-_CRC.itemsize].tobytes()) for row in body] if len(x) else []
    header = json.dumps({
        "count": int(len(x)), "sample_shape": list(x.shape[1:]), "dtype": sample.str,
        "label_dtype": _LABEL.str, "record_size": int(rec_dtype.itemsize), "meta": meta or {},
    }, sort_keys=True).encode()
    prefix = _PREFIX.pack(MAGIC, VERSION, len(header), zlib.crc32(header))
    tmp = path.with_name(path.name + ".tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(tmp, "wb") as fh:
        fh.write(prefix + header)
        fh.write(records.tobytes())
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return ShardHeader(len(x), tuple(x.shape[1:]), sample.str, rec_dtype.itemsize, _PREFIX.size + len(header), meta or {})


def _parse_header(path: Path, head: bytes) -> ShardHeader:
    if len(head) < _PREFIX.size:
        raise DataError(f"{path}: truncated shard prefix ({len(head)} bytes)")
    magic, version, hlen, hcrc = _PREFIX.unpack_from(head)
    if magic != MAGIC:
        raise DataError(f"{path}: not an edgecl shard (magic {magic!r})")
    if version != VERSION:
        raise DataError(f"{path}: shard version {version}, this reader knows {VERSION}")
    if hlen > MAX_HEADER:
        raise DataError(f"{path}: header length {hlen} is implausible (corrupted prefix)")
    raw = head[_PREFIX.size:_PREFIX.size + hlen]
    if len(raw) < hlen:
        raise DataError(f"{path}: truncated shard header ({len(raw)} of {hlen} bytes)")
    if zlib.crc32(raw) != hcrc:
        raise DataError(f"{path}: header checksum mismatch (corrupted header)")
    try:
        h = json.loads(raw)
        shape = tuple(int(s) for s in h["sample_shape"])
        hdr = ShardHeader(int(h["count"]), shape, str(h["dtype"]), int(h["record_size"]), _PREFIX.size + hlen,
                          dict(h.get("meta", {})))
        expected = hdr.record_dtype.itemsize
    except (ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{path}: malformed shard header ({exc})") from None
    if expected != hdr.record_size:
        raise DataError(f"{path}: header record_size {hdr.record_size} does not match dtype/shape ({expected})")
    return hdr


def read_header(path: str | Path) -> ShardHeader:
    """The header of a shard, checked (checksum, and file length against the record count)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(_PREFIX.size)
            if len(head) == _PREFIX.size:
                head += fh.read(min(_PREFIX.unpack_from(head)[2], MAX_HEADER + 1))
        size = path.stat().st_size
    except OSError as exc:
        raise DataError(f"{path}: cannot read shard ({exc.strerror or exc})") from None
    hdr = _parse_header(path, head)
    have = size - hdr.data_offset
    need = hdr.count * hdr.record_size
    if have < need:
        first_bad = max(have, 0) // hdr.record_size
        raise DataError(f"{path}: truncated at record {first_bad} of {hdr.count} ({have} of {need} data bytes)")
    if have > need:
        raise DataError(f"{path}: {have - need} unexpected bytes after record {hdr.count - 1}")
    return hdr


def _verify(path: Path, records: np.ndarray, indices: np.ndarray) -> None:
    body = records.view(np.uint8).reshape(len(records), records.dtype.itemsize)
    for row, idx, crc in zip(body, indices, records["crc"]):
        if zlib.crc32(row[:-_CRC.itemsize].tobytes()) != int(crc):
            raise DataError(f"{path}: record {int(idx)} checksum mismatch (corrupted data)")


def read_shard(path: str | Path, verify: bool = True) -> tuple[np.ndarray, np.ndarray, ShardHeader]:
    """All samples ``(N, *shape)`` and labels ``(N,)`` int64 of a shard, every record checked."""
    path = Path(path)
    hdr = read_header(path)
    with open(path, "rb") as fh:
        fh.seek(hdr.data_offset)
        raw = fh.read(hdr.count * hdr.record_size)
    records = np.frombuffer(raw, hdr.record_dtype, count=hdr.count)
    if verify:
        _verify(path, records, np.arange(hdr.count))
    x = records["x"].astype(np.dtype(hdr.dtype).newbyteorder("="))
    return x, records["label"].astype(np.int64), hdr


def read_records(path: str | Path, indices: np.ndarray, header: ShardHeader | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Random access to some records (the device pages samples in without loading the whole shard)."""
    path = Path(path)
    hdr = header or read_header(path)
    indices = np.asarray(indices, dtype=np.int64)
    if len(indices) and (indices.min() < 0 or indices.max() >= hdr.count):
        raise DataError(f"{path}: record index out of range 0..{hdr.count - 1}")
    if len(indices) == 0:
        return np.zeros((0, *hdr.sample_shape), np.dtype(hdr.dtype).newbyteorder("=")), np.zeros(0, np.int64)
    mm = np.memmap(path, np.uint8, mode="r", offset=hdr.data_offset, shape=(hdr.count * hdr.record_size,))
    table = mm.reshape(hdr.count, hdr.record_size)
    records = np.ascontiguousarray(table[indices]).view(hdr.record_dtype).reshape(len(indices))
    del mm, table
    _verify(path, records, indices)
    return records["x"].astype(np.dtype(hdr.dtype).newbyteorder("=")), records["label"].astype(np.int64)
