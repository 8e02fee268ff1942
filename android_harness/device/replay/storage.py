"""The replay store's storage tier (Miro's flash level): every past sample, one record each.

Layout of the store folder::

    store.json          record format (sample shape, dtype, logit count), written once, temp-then-rename
    class_<label>.rec   append-only fixed-size records of one class

A record is ``magic(4) crc32(4) sample_id(8) label(4) x-bytes logit-bytes``; the crc covers
everything after itself. The index (byte offsets of the valid records per class) lives in RAM and
is rebuilt from the records every time the store is opened: a torn tail left by a kill -9 is cut
off, and a record whose checksum fails is skipped, so a reader never gets a corrupted sample.
``commit()`` fsyncs the files it wrote; a sample is committed once ``commit()`` has returned.
"""
from __future__ import annotations

import json
import os
import struct
import zlib
from dataclasses import dataclass

import numpy as np

from android_harness.device.disk_space import append_whole
from android_harness.device.errors import ReplayStoreError, StorageFullError

MAGIC = b"ECR1"
_HEAD = struct.Struct("<4sI")
_META = struct.Struct("<qi")
FORMAT_FILE = "store.json"


@dataclass(frozen=True)
class RecordFormat:
    """Shape of one stored sample: input array and (for DER++) its recorded logits."""

    x_shape: tuple[int, ...]
    n_logits: int = 0
    x_dtype: str = "float32"

    @property
    def x_nbytes(self) -> int:
        return int(np.prod(self.x_shape)) * np.dtype(self.x_dtype).itemsize

    @property
    def record_size(self) -> int:
        return _HEAD.size + _META.size + self.x_nbytes + 4 * self.n_logits

    def to_json(self) -> dict:
        return {"version": 1, "x_shape": list(self.x_shape), "n_logits": self.n_logits, "x_dtype": self.x_dtype}


def _class_file(root: str, label: int) -> str:
    return os.path.join(root, f"class_{int(label)}.rec")


class StorageTier:
    """Append-only, checksummed, per-class sample files under a byte budget."""

    def __init__(self, root: str, fmt: RecordFormat, budget_bytes: int, read_only: bool = False) -> None:
        self.root, self.fmt, self.budget_bytes, self.read_only = root, fmt, int(budget_bytes), read_only
        self._offsets: dict[int, list[int]] = {}
        self._ends: dict[int, int] = {}
        self._ids: set[int] = set()
        self._fds: dict[int, int] = {}
        self._rfds: dict[int, int] = {}
        self._maps: dict[int, np.ndarray] = {}
        self._dirty: set[int] = set()
        self.skipped_corrupt = 0
        self._open_format()
        self._rebuild_index()

    # -- opening ---------------------------------------------------------------------------
    def _open_format(self) -> None:
        path = os.path.join(self.root, FORMAT_FILE)
        if os.path.exists(path):
            with open(path) as f:
                found = json.load(f)
            if found != self.fmt.to_json():
                raise ReplayStoreError(f"replay store {self.root}: format {found} does not match the session's {self.fmt.to_json()}")
            return
        if self.read_only:
            os.makedirs(self.root, exist_ok=True)
            return
        os.makedirs(self.root, exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.fmt.to_json(), f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def _rebuild_index(self) -> None:
        """Scan every record file: keep valid records, skip bad ones, cut a torn tail."""
        size = self.fmt.record_size
        for name in sorted(os.listdir(self.root)):
            if not (name.startswith("class_") and name.endswith(".rec")):
                continue
            label = int(name[6:-4])
            path = os.path.join(self.root, name)
            with open(path, "rb") as f:
                data = f.read()
            whole = len(data) - len(data) % size
            offsets: list[int] = []
            for off in range(0, whole, size):
                rec = data[off:off + size]
                ok, sid = self._check(rec, label)
                if ok:
                    offsets.append(off)
                    self._ids.add(sid)
                else:
                    self.skipped_corrupt += 1
            if whole != len(data) and not self.read_only:
                with open(path, "rb+") as f:
                    f.truncate(whole)
                    os.fsync(f.fileno())
            self._offsets[label] = offsets
            self._ends[label] = whole

    def _check(self, rec: bytes, label: int) -> tuple[bool, int]:
        magic, crc = _HEAD.unpack_from(rec)
        if magic != MAGIC or zlib.crc32(rec[_HEAD.size:]) != crc:
            return False, -1
        sid, lab = _META.unpack_from(rec, _HEAD.size)
        return lab == label, sid

    # -- queries -----------------------------------------------------------------------------
    def labels(self) -> list[int]:
        return sorted(k for k, v in self._offsets.items() if v)

    def count(self, label: int) -> int:
        return len(self._offsets.get(int(label), ()))

    def __len__(self) -> int:
        return sum(len(v) for v in self._offsets.values())

    def __contains__(self, sample_id: int) -> bool:
        return int(sample_id) in self._ids

    @property
    def used_bytes(self) -> int:
        return sum(self._ends.values())

    def position(self) -> dict[str, int]:
        """Byte end of each class file: what a checkpoint records to resume exactly."""
        return {str(k): v for k, v in sorted(self._ends.items())}

    # -- writing -----------------------------------------------------------------------------
    def append(self, ids: np.ndarray, x: np.ndarray, y: np.ndarray, logits: np.ndarray | None = None) -> int:
        """Write samples whose id is not stored yet; returns how many were written (not yet committed)."""
        if self.read_only:
            raise ReplayStoreError(f"replay store {self.root} is open read-only (profiling session)")
        keep = [i for i, sid in enumerate(np.asarray(ids).tolist()) if sid not in self._ids]
        if not keep:
            return 0
        need = len(keep) * self.fmt.record_size
        if self.used_bytes + need > self.budget_bytes:
            raise StorageFullError(
                f"replay storage budget full: {self.used_bytes} of {self.budget_bytes} bytes used in {self.root}, "
                f"{len(keep)} more samples need {need} bytes (raise replay.storage_budget_mb)")
        x = np.ascontiguousarray(np.asarray(x, dtype=self.fmt.x_dtype).reshape((-1,) + self.fmt.x_shape))
        if self.fmt.n_logits:
            if logits is None:
                raise ReplayStoreError("this replay store keeps logits (DER++); append() got none")
            logits = np.ascontiguousarray(np.asarray(logits, dtype=np.float32).reshape(-1, self.fmt.n_logits))
        by_label: dict[int, list[bytes]] = {}
        for i in keep:
            label = int(y[i])
            body = _META.pack(int(ids[i]), label) + x[i].tobytes() + (logits[i].tobytes() if self.fmt.n_logits else b"")
            by_label.setdefault(label, []).append(_HEAD.pack(MAGIC, zlib.crc32(body)) + body)
        for label, recs in by_label.items():
            fd = self._fd(label)
            append_whole(fd, _class_file(self.root, label), b"".join(recs))   # whole records or none
            offsets = self._offsets.setdefault(label, [])
            end = self._ends.get(label, 0)
            offsets.extend(end + j * self.fmt.record_size for j in range(len(recs)))
            self._ends[label] = end + len(recs) * self.fmt.record_size
            self._dirty.add(label)
        self._ids.update(int(ids[i]) for i in keep)
        return len(keep)

    def commit(self) -> None:
        """Make every appended sample durable; after this returns they survive a kill -9."""
        for label in sorted(self._dirty):
            os.fsync(self._fds[label])
        self._dirty.clear()

    def truncate_to(self, position: dict[str, int]) -> None:
        """Roll the store back to a checkpoint's position (drops samples appended after it)."""
        self.close()
        for label, end in list(self._ends.items()):
            target = int(position.get(str(label), 0))
            if target < end:
                with open(_class_file(self.root, label), "rb+") as f:
                    f.truncate(target)
                    os.fsync(f.fileno())
        self._offsets.clear()
        self._ends.clear()
        self._ids.clear()
        self._rebuild_index()

    def _fd(self, label: int) -> int:
        if label not in self._fds:
            path = _class_file(self.root, label)
            self._fds[label] = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        return self._fds[label]

    # -- reading -----------------------------------------------------------------------------
    def read(self, label: int, index: int) -> tuple[int, np.ndarray, np.ndarray | None]:
        """The ``index``-th valid record of ``label`` as (sample_id, x, logits); checksum re-verified."""
        offsets = self._offsets.get(int(label), [])
        if not 0 <= index < len(offsets):
            raise ReplayStoreError(f"replay store has {len(offsets)} samples of class {label}, asked for #{index}")
        size = self.fmt.record_size
        rec = os.pread(self._rfd(int(label)), size, offsets[index])
        ok, sid = self._check(rec, int(label)) if len(rec) == size else (False, -1)
        if not ok:
            raise ReplayStoreError(f"replay record #{index} of class {label} failed its checksum on read")
        start = _HEAD.size + _META.size
        x = np.frombuffer(rec, dtype=self.fmt.x_dtype, count=int(np.prod(self.fmt.x_shape)), offset=start)
        logits = None
        if self.fmt.n_logits:
            logits = np.frombuffer(rec, dtype=np.float32, count=self.fmt.n_logits, offset=start + self.fmt.x_nbytes).copy()
        return sid, x.reshape(self.fmt.x_shape).copy(), logits

    def read_many(self, label: int, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Several records of one class in one gather from a read-only mmap: (ids, x, logits).

        Every record's checksum is verified; a bad one raises (the index only holds records that
        were valid when the store was opened, so this means the file changed under the store)."""
        offsets = self._offsets.get(int(label), [])
        indices = np.asarray(indices, np.int64)
        if len(indices) and (indices.min() < 0 or indices.max() >= len(offsets)):
            raise ReplayStoreError(f"replay store has {len(offsets)} samples of class {label}, asked for {indices.max()}")
        size = self.fmt.record_size
        view = self._records_view(int(label))
        rows = view[np.asarray(offsets, np.int64)[indices] // size]
        head = _HEAD.size
        for i, rec in enumerate(rows):
            if rec[:4].tobytes() != MAGIC or zlib.crc32(rec[head:]) != int(rec[4:8].view("<u4")[0]):
                raise ReplayStoreError(f"replay record #{indices[i]} of class {label} failed its checksum on read")
        meta = head + _META.size
        ids = rows[:, head:head + 8].copy().view("<i8").reshape(-1)
        x = rows[:, meta:meta + self.fmt.x_nbytes].copy().view(self.fmt.x_dtype).reshape((-1,) + self.fmt.x_shape)
        logits = None
        if self.fmt.n_logits:
            logits = rows[:, meta + self.fmt.x_nbytes:].copy().view(np.float32).reshape(-1, self.fmt.n_logits)
        return ids, x, logits

    def _records_view(self, label: int) -> np.ndarray:
        """The class file as a [records, record_size] uint8 array over an mmap (re-mapped when it grew)."""
        end = self._ends.get(label, 0)
        cached = self._maps.get(label)
        if cached is None or cached.shape[0] * self.fmt.record_size < end:
            import mmap

            mm = mmap.mmap(self._rfd(label), end, prot=mmap.PROT_READ)
            cached = np.frombuffer(mm, dtype=np.uint8).reshape(-1, self.fmt.record_size)
            self._maps[label] = cached
        return cached

    def _rfd(self, label: int) -> int:
        fd = self._rfds.get(label)
        if fd is None:
            fd = self._rfds[label] = os.open(_class_file(self.root, label), os.O_RDONLY)
        return fd

    def close(self) -> None:
        self.commit()
        self._maps.clear()
        for fd in [*self._fds.values(), *self._rfds.values()]:
            os.close(fd)
        self._fds.clear()
        self._rfds.clear()
