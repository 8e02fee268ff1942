"""``session.json``: what one device session runs, written by the host, read-only afterwards.

Paths are relative to the device's storage root (the folder holding ``sessions/``) unless absolute.
A *task* session trains ``tasks`` in order (resuming from ``resume_from``, the previous session's
final checkpoint); a *profiling* session (Miro) trains on a ``subset_fraction`` of the data for
``epochs`` with the replay store opened read-only, evaluates on the classes seen so far and
leaves the store untouched.
"""
from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from typing import Any

from android_harness.device.errors import SessionSpecError

METHODS = ("finetune", "er", "derpp")
EM_POLICIES = ("balanced", "reservoir")
KINDS = ("task", "profiling")


@dataclass
class TrainConfig:
    """The CL recipe (same meaning as ``pipeline.config.TrainSpec``)."""

    method: str = "derpp"
    epochs: int = 1
    batch_size: int = 32
    buffer_batch_size: int = 32
    lr: float = 0.03
    alpha: float = 0.1
    beta: float = 0.5
    current_task_logits_only: bool = True


@dataclass
class ReplayConfig:
    """Miro's hierarchy: EM and SB in RAM (samples, optional byte cap), the rest on flash.

    ``em_policy``: ``balanced`` = Miro (EM holds old classes, rebalanced from SB at task end);
    ``reservoir`` = mammoth's reservoir over the stream, the host reference trainer's exact choices.
    """

    em_size: int = 200
    sb_size: int = 400
    swap_ratio: float = 0.0
    swap_period: int = 1
    storage_budget_mb: float = 256.0
    em_max_bytes: int = 0
    sb_max_bytes: int = 0
    em_policy: str = "balanced"


@dataclass
class SparclConfig:
    """SparCL on the device, driven by pipeline.sparcl.core: TDM (mask updates between epochs, as
    weight-mask inputs of the program), DDR (data removal) and DGM (gradient masks)."""

    tdm: bool = False
    sparsity: float = 0.75
    tdm_lambda: float = 0.5
    tdm_update_every: float = 0.1
    tdm_swap: float = 0.01
    tdm_freeze_after: float = 0.9
    ddr: bool = False
    ddr_fraction: float = 0.3
    ddr_steps: list[float] = field(default_factory=lambda: [0.1, 0.2, 0.3, 0.4])
    dgm: bool = False
    dgm_ratio: float = 0.2           # share of SURVIVING weights' gradients masked (pipeline.config)
    dgm_period: int = 30


@dataclass
class SessionSpec:
    session_id: str
    model_dir: str
    data_dir: str
    replay_dir: str
    tasks: list[int]
    seed: int = 0
    kind: str = "task"
    train: TrainConfig = field(default_factory=TrainConfig)
    replay: ReplayConfig = field(default_factory=ReplayConfig)
    sparcl: SparclConfig = field(default_factory=SparclConfig)
    resume_from: str = ""
    checkpoint_every: int = 0
    keep_checkpoints: int = 2
    step_event_every: int = 10
    resources_every_s: float = 5.0
    subset_fraction: float = 1.0
    meminfo_path: str = "/proc/meminfo"
    eval_batch: int = 256

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def resolve(self, storage_root: str, path: str) -> str:
        return path if os.path.isabs(path) else os.path.join(storage_root, path)

    def validate(self) -> None:
        problems = []
        if self.kind not in KINDS:
            problems.append(f"kind: expected one of {KINDS}, got {self.kind!r}")
        if self.train.method not in METHODS:
            problems.append(f"train.method: the device runs {METHODS}, got {self.train.method!r}")
        if self.replay.em_policy not in EM_POLICIES:
            problems.append(f"replay.em_policy: expected one of {EM_POLICIES}, got {self.replay.em_policy!r}")
        if not self.tasks:
            problems.append("tasks: expected at least one task index")
        if not 0.0 < self.subset_fraction <= 1.0:
            problems.append(f"subset_fraction: expected a value in (0, 1], got {self.subset_fraction}")
        if not 0.0 <= self.replay.swap_ratio <= 1.0:
            problems.append(f"replay.swap_ratio: expected a value in [0, 1], got {self.replay.swap_ratio}")
        for where, obj, names in (("train", self.train, ("epochs", "batch_size", "buffer_batch_size")),
                                  ("replay", self.replay, ("swap_period", "sb_size"))):
            problems += [f"{where}.{n}: expected >= 1, got {getattr(obj, n)}" for n in names if getattr(obj, n) < 1]
        if problems:
            raise SessionSpecError("session.json: " + "; ".join(problems))


def _build(cls: type, data: dict[str, Any], where: str) -> Any:
    names = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise SessionSpecError(f"session.json {where}: unknown keys {unknown} (known: {sorted(names)})")
    kwargs = {}
    for name, f in names.items():
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise SessionSpecError(f"session.json {where}: required key {name!r} is missing")
            continue
        value = data[name]
        nested = {"train": TrainConfig, "replay": ReplayConfig, "sparcl": SparclConfig}.get(name) if cls is SessionSpec else None
        kwargs[name] = _build(nested, value, f"{where}{name}.") if nested else value
    return cls(**kwargs)


def spec_from_json(data: dict[str, Any]) -> SessionSpec:
    spec = _build(SessionSpec, data, "")
    spec.validate()
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
    with open(path + ".tmp", "w") as f:
        json.dump(spec.to_json(), f, indent=1)
    os.replace(path + ".tmp", path)
    return path
