"""Checkpoints (docs/semantics.md 10): ``checkpoints/ckpt-<iteration>/state.json`` + ``arrays/<name>.npy``.

Built in a temporary sibling folder, fsynced and renamed into place, so the latest complete
checkpoint always wins and a kill mid-write leaves only a temporary folder that the next save
removes; one that would not fit the disk is refused before a byte is written, and a full disk
part-way removes the temporary folder (as the native runner's checkpoint.cpp does). Arrays are
NumPy ``.npy`` v1 files (``<f4``, ``<i8``, ``|u1``); no generator state is ever saved (every
stream is keyed by where it is used).
"""
from __future__ import annotations

import json
import os
import shutil
from typing import Any

import numpy as np

from android_harness.device.disk_space import check_free_space, is_full, no_space_error
from android_harness.device.errors import CheckpointError

PREFIX = "ckpt-"
FORMAT = 2
STATE = "state.json"
ARRAYS = "arrays"
RUNTIME = "runtime"            # runtime state the arrays cannot carry (ORT's AdamW moments)
PER_FILE_BYTES = 4096         # a file's block and inode, in the free-space check (as the native runner)
_DTYPES = {"f": "<f4", "i": "<i8", "u": "|u1", "b": "|u1"}


def _fsync_tree(folder: str) -> None:
    for root, _dirs, files in os.walk(folder):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                os.fsync(f.fileno())


def _npy_dtype(a: np.ndarray) -> str:
    kind = np.asarray(a).dtype.kind
    if kind not in _DTYPES:
        raise CheckpointError(f"checkpoint array of dtype {a.dtype} is not one of <f4, <i8, |u1")
    return _DTYPES[kind]


def save_checkpoint(folder: str, iteration: int, state: dict[str, Any], arrays: dict[str, np.ndarray],
                    runtime_state=None, keep: int = 2) -> str:
    """Write ``ckpt-<iteration>`` atomically (``runtime_state(path)`` may add the runtime folder); keep the newest ``keep``."""
    name = f"{PREFIX}{iteration:09d}"
    final = os.path.join(folder, name)
    tmp = os.path.join(folder, f".{name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    state_text = json.dumps({"format": FORMAT, **state}, indent=1)
    # a full disk fails here, before a byte is written, or part-way: the temp folder goes either way
    needed = len(state_text) + PER_FILE_BYTES + sum(np.asarray(a).nbytes + PER_FILE_BYTES for a in arrays.values())
    check_free_space(folder, needed, f"checkpoint {name}")
    try:
        os.makedirs(os.path.join(tmp, ARRAYS))          # (and the checkpoints folder, the first time)
        for key, value in arrays.items():
            np.save(os.path.join(tmp, ARRAYS, f"{key}.npy"), np.ascontiguousarray(value, dtype=_npy_dtype(value)),
                    allow_pickle=False)
        if runtime_state is not None:
            os.makedirs(os.path.join(tmp, RUNTIME))
            runtime_state(os.path.join(tmp, RUNTIME))
        with open(os.path.join(tmp, STATE), "w") as f:
            f.write(state_text)
        _fsync_tree(tmp)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if is_full(exc):
            raise no_space_error(folder, needed, f"checkpoint {name}") from None
        raise
    if os.path.exists(final):
        shutil.rmtree(final)
    os.replace(tmp, final)
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    for old in list_checkpoints(folder)[:-keep] if keep > 0 else []:
        shutil.rmtree(os.path.join(folder, old), ignore_errors=True)
    return final


def list_checkpoints(folder: str) -> list[str]:
    """Complete checkpoints, oldest first."""
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder) if n.startswith(PREFIX) and os.path.exists(os.path.join(folder, n, STATE)))


def latest_checkpoint(folder: str) -> str | None:
    names = list_checkpoints(folder)
    return os.path.join(folder, names[-1]) if names else None


def load_checkpoint(path: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``state.json`` and every array of a checkpoint folder."""
    try:
        with open(os.path.join(path, STATE)) as f:
            state = json.load(f)
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no {STATE} (not a checkpoint folder)") from None
    except json.JSONDecodeError as exc:
        raise CheckpointError(f"{path}/{STATE}: not valid JSON ({exc})") from None
    if state.get("format") != FORMAT:
        raise CheckpointError(f"{path}: checkpoint format {state.get('format')!r}, this runner reads format {FORMAT}")
    folder = os.path.join(path, ARRAYS)
    arrays = {name[:-4]: np.load(os.path.join(folder, name), allow_pickle=False)
              for name in sorted(os.listdir(folder)) if name.endswith(".npy")}
    return state, arrays
