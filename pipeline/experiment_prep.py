"""From an ``ExperimentSpec`` to what a session needs: task shards, an export request, session.json.

Shared by ``pipeline.experiment`` (the full run on a device), the profiling sessions Miro asks for,
the host trainer (the same sessions under a local storage root), the runner tests and
``bench/runner.py``, so every path builds sessions the same way.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path

import torch

from android_harness.device.session_spec import SessionSpec, device_table
from android_harness.device.spec_tables import ReplayConfig, SparclConfig, TrainConfig
from pipeline.config import ExperimentSpec
from pipeline.datasets import load_dataset, split_from_spec, write_task_shards
from pipeline.datasets.user_data import fingerprint
from pipeline.spec_model import build_spec_model
from pipeline.task_config import TaskConfig


@dataclass
class DataInfo:
    folder: Path
    input_shape: tuple[int, ...]
    num_classes: int
    tasks: list[int]


def data_digest(spec: ExperimentSpec) -> str:
    files = fingerprint(spec.data)   # your own data: its files' contents, so edits are not served from the cache
    blob = json.dumps({"data": spec.to_dict()["data"], "seed": spec.seed} | ({"files": files} if files else {}),
                      sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def write_shards(spec: ExperimentSpec, cache: Path) -> DataInfo:
    """Task shards for ``spec.data`` under ``cache/data/<digest>`` (written once, reused after)."""
    folder = Path(cache) / "data" / data_digest(spec)
    index = folder / "tasks.json"
    if not index.is_file():
        ds = load_dataset(spec.data, spec.seed)
        write_task_shards(split_from_spec(ds, spec.data, spec.seed), ds, folder)
    meta = json.loads(index.read_text())
    return DataInfo(folder, tuple(meta["input_shape"]), int(meta["num_classes"]), [int(t["index"]) for t in meta["tasks"]])


def initial_model(spec: ExperimentSpec, data: DataInfo) -> torch.nn.Module:
    """The model the host trainer starts from (same seed, same builder)."""
    torch.manual_seed(spec.seed)
    return build_spec_model(spec.model, data.input_shape, data.num_classes, f"data.kind {spec.data.kind!r}")


def export_request(spec: ExperimentSpec, data: DataInfo, runtime: str):
    """The export for ``runtime``: one program of ``train.batch_size`` rows, with the initial TDM masks."""
    from pipeline.export import ExportRequest
    from pipeline.sparcl.init_masks import initial_masks

    model = initial_model(spec, data)
    masks = initial_masks(spec.sparcl, model)
    m, tr = spec.model, spec.train
    return ExportRequest(
        model=m.kind, input_shape=data.input_shape, num_classes=data.num_classes, batch_size=tr.batch_size,
        runtime=runtime, optimizer=tr.optimizer, lr=tr.lr, momentum=tr.momentum, weight_decay=tr.weight_decay,
        norm=m.norm, width=m.width, hidden=tuple(m.hidden), args=dict(m.args), maskable=tuple(m.maskable),
        seed=spec.seed, masks=masks,
        state_dict={k: v.detach().clone() for k, v in model.state_dict().items()}, fast_passes=spec.export.fast_passes,
        spec_hash=spec.digest())


def session_spec(spec: ExperimentSpec, session_id: str, tasks: list[int], *, model_dir: str, data_dir: str,
                 replay_dir: str, task: TaskConfig | None = None, resume_from: str = "", kind: str = "task",
                 subset_fraction: float = 1.0, epochs: int | None = None, meminfo_path: str = "/proc/meminfo",
                 trace: bool | None = None) -> SessionSpec:
    """``session.json`` for one session of ``spec`` (paths relative to the storage root unless absolute)."""
    task = task or TaskConfig.from_spec(spec)
    train = device_table(TrainConfig, spec.train)
    if epochs is not None:
        train = replace(train, epochs=epochs)
    sparcl = replace(device_table(SparclConfig, spec.sparcl), sparsity=task.sparsity, ddr_fraction=task.ddr_fraction)
    return SessionSpec(
        session_id=session_id, model_dir=model_dir, data_dir=data_dir, replay_dir=replay_dir, tasks=list(tasks),
        seed=spec.seed, kind=kind, train=train, replay=device_table(ReplayConfig, task.replay), sparcl=sparcl,
        resume_from=resume_from, checkpoint_every=spec.device.checkpoint_every, subset_fraction=subset_fraction,
        meminfo_path=meminfo_path, trace=spec.device.trace if trace is None else trace)
