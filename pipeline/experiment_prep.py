"""From an ``ExperimentSpec`` to what a device session needs: task shards, an export request, session.json.

Shared by ``pipeline.experiment`` (the full run), the profiling sessions Miro asks for, the runner
tests and ``bench/runner.py``, so every path builds sessions the same way.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from android_harness.device.cl_step import rows_per_step
from android_harness.device.session_spec import ReplayConfig, SessionSpec, SparclConfig, TrainConfig
from pipeline.config import ExperimentSpec, ReplaySpec
from pipeline.datasets import load_dataset, split_from_spec, write_task_shards
from pipeline.datasets.user_data import fingerprint
from pipeline.errors import ConfigError
from pipeline.spec_model import build_spec_model


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


def train_config(spec: ExperimentSpec) -> TrainConfig:
    tr = spec.train
    if tr.method == "joint":
        raise ConfigError("train.method: 'joint' is the host-only upper bound; the device runs finetune, er or derpp")
    return TrainConfig(method=tr.method, epochs=tr.epochs, batch_size=tr.batch_size, buffer_batch_size=tr.buffer_batch_size,
                       lr=tr.lr, alpha=tr.alpha, beta=tr.beta, current_task_logits_only=tr.current_task_logits_only)


def replay_config(replay: ReplaySpec, em_policy: str = "balanced") -> ReplayConfig:
    return ReplayConfig(em_size=replay.em_size, sb_size=replay.sb_size, swap_ratio=replay.swap_ratio,
                        swap_period=replay.swap_period, storage_budget_mb=replay.storage_budget_mb, em_policy=em_policy)


def sparcl_config(spec: ExperimentSpec) -> SparclConfig:
    sp = spec.sparcl
    return SparclConfig(tdm=sp.enabled and sp.tdm and not sp.structured, sparsity=sp.sparsity, tdm_lambda=sp.tdm_lambda,
                        tdm_update_every=sp.tdm_update_every, tdm_swap=sp.tdm_swap, tdm_freeze_after=sp.tdm_freeze_after,
                        ddr=sp.enabled and sp.ddr and sp.ddr_fraction > 0, ddr_fraction=sp.ddr_fraction,
                        ddr_steps=list(sp.ddr_steps), dgm=sp.enabled and sp.dgm, dgm_ratio=sp.dgm_ratio, dgm_period=sp.dgm_period)


def initial_model(spec: ExperimentSpec, data: DataInfo) -> torch.nn.Module:
    """The model the host trainer starts from (same seed, same builder)."""
    torch.manual_seed(spec.seed)
    return build_spec_model(spec.model, data.input_shape, data.num_classes, f"data.kind {spec.data.kind!r}")


def export_request(spec: ExperimentSpec, data: DataInfo, runtime: str):
    """The export for ``runtime``: one program whose fixed batch holds the current rows and the replay draws."""
    from pipeline.export import ExportRequest

    model = initial_model(spec, data)
    masks = None
    if spec.sparcl.enabled and spec.sparcl.tdm:
        from pipeline.sparcl.policies import build_sparcl_policy, masks_by_layer
        from pipeline.cl.policy import StepInfo

        policy = build_sparcl_policy(spec, model)
        policy.on_task_start(StepInfo(task=0, epoch=0, epochs=spec.train.epochs, iteration=0), model, 1)
        masks = {k: np.asarray(v, np.float32) for k, v in masks_by_layer(policy).items()}
    m, tr = spec.model, spec.train
    return ExportRequest(
        model=m.kind, input_shape=data.input_shape, num_classes=data.num_classes, batch_size=rows_per_step(train_config(spec)),
        runtime=runtime, optimizer=tr.optimizer, lr=tr.lr, momentum=tr.momentum, weight_decay=tr.weight_decay,
        norm=m.norm, width=m.width, hidden=tuple(m.hidden), args=dict(m.args), maskable=tuple(m.maskable),
        seed=spec.seed, masks=masks,
        state_dict={k: v.detach().clone() for k, v in model.state_dict().items()}, fast_passes=spec.export.fast_passes,
        spec_hash=spec.digest())


def session_spec(spec: ExperimentSpec, session_id: str, tasks: list[int], *, model_dir: str, data_dir: str,
                 replay_dir: str, replay: ReplaySpec | None = None, em_policy: str = "balanced", resume_from: str = "",
                 kind: str = "task", subset_fraction: float = 1.0, epochs: int | None = None,
                 meminfo_path: str = "/proc/meminfo") -> SessionSpec:
    """``session.json`` for one session of ``spec`` (paths relative to the device's storage root)."""
    train = train_config(spec)
    if epochs is not None:
        train.epochs = epochs
    return SessionSpec(
        session_id=session_id, model_dir=model_dir, data_dir=data_dir, replay_dir=replay_dir, tasks=list(tasks),
        seed=spec.seed, kind=kind, train=train, replay=replay_config(replay or spec.replay, em_policy),
        sparcl=sparcl_config(spec), resume_from=resume_from, checkpoint_every=spec.device.checkpoint_every,
        subset_fraction=subset_fraction, meminfo_path=meminfo_path)
