"""Runner checkpoints: model (via the backend), RAM tier, policies, RNG streams and replay position.

``checkpoints/ckpt-<step>/`` holds ``backend/`` (the backend's own save), ``runner.npz`` (arrays)
and ``runner.json`` (position, generator states, storage-tier position, results so far). It is
built in a temporary sibling and renamed into place, so the latest complete checkpoint always
wins and a kill mid-write leaves only a temporary folder that the next save removes.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

PREFIX = "ckpt-"


@dataclass
class RunnerState:
    """Where the run is; ``batch`` = next batch of ``epoch`` (0 = the epoch has not started)."""

    iteration: int = 0
    task: int = -1
    task_finished: bool = True
    epoch: int = 0
    batch: int = 0
    batch_rng: dict = field(default_factory=dict)
    method_rng: dict = field(default_factory=dict)
    storage_position: dict = field(default_factory=dict)
    evals: list = field(default_factory=list)
    epoch_loss: list = field(default_factory=lambda: [0.0, 0])


def split_state(prefix: str, obj: Any, arrays: dict[str, np.ndarray]) -> Any:
    """Nested state -> JSON-able skeleton; arrays go to ``arrays`` under dotted keys."""
    if isinstance(obj, dict):
        return {str(k): split_state(f"{prefix}/{k}", v, arrays) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        arrays[prefix] = obj
        return {"__array__": prefix}
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (list, tuple)):
        return [split_state(f"{prefix}/{i}", v, arrays) for i, v in enumerate(obj)]
    return obj


def join_state(skeleton: Any, arrays: dict[str, np.ndarray]) -> Any:
    if isinstance(skeleton, dict):
        if set(skeleton) == {"__array__"}:
            return arrays[skeleton["__array__"]]
        return {k: join_state(v, arrays) for k, v in skeleton.items()}
    if isinstance(skeleton, list):
        return [join_state(v, arrays) for v in skeleton]
    return skeleton


def _fsync_tree(folder: str) -> None:
    for root, _dirs, files in os.walk(folder):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                os.fsync(f.fileno())


def save_checkpoint(folder: str, backend, state: RunnerState, arrays: dict[str, np.ndarray],
                    extra: dict[str, Any], keep: int = 2) -> str:
    """Write ``ckpt-<iteration>`` atomically; keep the newest ``keep`` checkpoints."""
    os.makedirs(folder, exist_ok=True)
    name = f"{PREFIX}{state.iteration:09d}"
    final = os.path.join(folder, name)
    tmp = os.path.join(folder, f".{name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    backend.save(os.path.join(tmp, "backend"))
    all_arrays = dict(arrays)
    skeleton = split_state("extra", extra, all_arrays)
    np.savez(os.path.join(tmp, "runner.npz"), **all_arrays)
    with open(os.path.join(tmp, "runner.json"), "w") as f:
        json.dump({"state": asdict(state), "extra": skeleton}, f)
    _fsync_tree(tmp)
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
    names = [n for n in os.listdir(folder) if n.startswith(PREFIX) and os.path.exists(os.path.join(folder, n, "runner.json"))]
    return sorted(names)


def latest_checkpoint(folder: str) -> str | None:
    names = list_checkpoints(folder)
    return os.path.join(folder, names[-1]) if names else None


def load_checkpoint(path: str, backend) -> tuple[RunnerState, dict[str, np.ndarray], dict[str, Any]]:
    """Restore the backend from ``path``; return the runner state, arrays and extra state."""
    backend.load(os.path.join(path, "backend"))
    with open(os.path.join(path, "runner.json")) as f:
        meta = json.load(f)
    with np.load(os.path.join(path, "runner.npz")) as z:
        arrays = {k: z[k] for k in z.files}
    state = RunnerState(**meta["state"])
    return state, arrays, join_state(meta["extra"], arrays)
