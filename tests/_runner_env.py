"""Builds a storage root on the host (shards + export + session.json) for runner tests and bench."""
from __future__ import annotations

from pathlib import Path

from android_harness.device.session_spec import write_spec
from pipeline.config import ExperimentSpec, parse_spec
from pipeline.experiment_prep import DataInfo, export_request, session_spec, write_shards
from pipeline.export import export_program


def small_spec(method: str = "derpp", **train) -> ExperimentSpec:
    return parse_spec({"seed": 3, "data": {"kind": "digits", "tasks": 3, "classes_per_task": 2, "max_train_per_class": 60},
                       "model": {"kind": "mlp", "hidden": [32, 32]},
                       "train": {"method": method, "epochs": 2, "batch_size": 16, "lr": 0.05, **train},
                       "replay": {"em_size": 60, "sb_size": 200, "swap_ratio": 0.5}})


def build_root(spec: ExperimentSpec, root: Path, runtime: str = "ort") -> DataInfo:
    data = write_shards(spec, root)
    export_program(export_request(spec, data, runtime), root / "models" / runtime)
    return data


def new_session(spec: ExperimentSpec, root: Path, data: DataInfo, sid: str, runtime: str = "ort", **kw) -> Path:
    overrides = kw.pop("overrides", {})
    ss = session_spec(spec, sid, kw.pop("tasks", data.tasks), model_dir=f"models/{runtime}",
                      data_dir=str(data.folder.relative_to(root)), replay_dir=kw.pop("replay_dir", f"sessions/{sid}/replay"), **kw)
    for key, value in overrides.items():
        setattr(ss, key, value)
    folder = root / "sessions" / sid
    write_spec(str(folder), ss)
    return folder
