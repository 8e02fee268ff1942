"""``session.json``: what one session runs (docs/semantics.md 10), written by the host, read-only afterwards.

Paths are relative to the storage root (the folder holding ``sessions/``) unless absolute. A
*task* session trains ``tasks`` in order from the start of each, after loading ``resume_from`` (a
checkpoint at a task end; empty = the export's initial state); a kill/resume continues from the
session's own latest checkpoint. A *profiling* session (Miro) does the same on a
``subset_fraction`` of SB and EM with the storage tier opened read-only, and never writes it;
one nobody resumes from (a candidate) skips its task-end checkpoint (``checkpoint_at_task_end``).
``train``, ``replay`` and ``sparcl`` are the tables of ``spec_tables`` (the experiment spec's own).
"""
from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from typing import Any

from android_harness.device.errors import SessionSpecError
from android_harness.device.fileio import write_text_atomic
from android_harness.device.spec_schema import build, spec_field, to_dict
from android_harness.device.spec_tables import KINDS, ReplayConfig, SparclConfig, TrainConfig, table_problems


@dataclass
class SessionSpec:
    session_id: str = spec_field()
    model_dir: str = spec_field()
    data_dir: str = spec_field()
    replay_dir: str = spec_field()
    tasks: list[int] = spec_field()
    seed: int = spec_field(0, ge=0, lt=2**63)
    kind: str = spec_field("task", choices=KINDS)
    train: TrainConfig = field(default_factory=TrainConfig)
    replay: ReplayConfig = field(default_factory=ReplayConfig)
    sparcl: SparclConfig = field(default_factory=SparclConfig)
    resume_from: str = spec_field("", doc="a checkpoint at a task end; empty = the export's initial state")
    checkpoint_every: int = spec_field(0, ge=0, doc="steps between checkpoints (0 = task ends only)")
    keep_checkpoints: int = spec_field(2, ge=1)
    checkpoint_at_task_end: bool = spec_field(True, doc="False: a profiling session nobody resumes from writes none")
    step_event_every: int = spec_field(10, ge=0)
    resources_every_s: float = spec_field(5.0, gt=0.0)
    subset_fraction: float = spec_field(1.0, gt=0.0, le=1.0)
    meminfo_path: str = spec_field("/proc/meminfo")
    trace: bool = spec_field(False, doc="append trace.jsonl (docs/semantics.md 11)")

    def to_json(self) -> dict[str, Any]:
        return to_dict(self)

    def resolve(self, storage_root: str, path: str) -> str:
        return path if os.path.isabs(path) else os.path.join(storage_root, path)

    def validate(self) -> None:
        problems = _problems(self)
        if problems:
            raise SessionSpecError("session.json: " + "; ".join(problems))


def _problems(spec: SessionSpec) -> list[str]:
    problems = table_problems(spec.sparcl)
    if not spec.tasks:
        problems.append("tasks: expected at least one task index")
    if any(t < 0 for t in spec.tasks) or len(set(spec.tasks)) != len(spec.tasks):
        problems.append(f"tasks: expected distinct task indices >= 0, got {spec.tasks}")
    if not spec.checkpoint_at_task_end and spec.kind != "profiling":
        problems.append("checkpoint_at_task_end: false only for profiling sessions (a task session's "
                        "task-end checkpoint is where the next task starts)")
    return problems


def spec_from_json(data: dict[str, Any]) -> SessionSpec:
    if not isinstance(data, dict):
        raise SessionSpecError(f"session.json: expected a JSON object, got {type(data).__name__}")
    spec, problems = build(SessionSpec, data)
    if spec is not None:
        problems += _problems(spec)
    if problems:
        raise SessionSpecError("session.json: " + "; ".join(problems))
    return spec


def read_spec(session_dir: str) -> SessionSpec:
    path = os.path.join(session_dir, "session.json")
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise SessionSpecError(f"{path}: missing (the host writes it before starting the runner)") from None
    except json.JSONDecodeError as exc:
        raise SessionSpecError(f"{path}: not valid JSON ({exc})") from None
    return spec_from_json(data)


def write_spec(session_dir: str, spec: SessionSpec) -> str:
    """Temp-then-rename, so the runner never reads half a spec."""
    spec.validate()
    os.makedirs(session_dir, exist_ok=True)
    path = os.path.join(session_dir, "session.json")
    write_text_atomic(path, json.dumps(spec.to_json(), indent=1))
    return path


def device_table(cls: type, table: Any) -> Any:
    """The ``cls`` part of a (possibly extended host) table: the host's ``TrainSpec`` -> ``TrainConfig``."""
    return cls(**{f.name: getattr(table, f.name) for f in dataclasses.fields(cls)})
