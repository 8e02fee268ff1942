"""Limits a spec must meet before anything runs: safe names, positive sizes, sizes the data and the
phone's RAM can hold. ``static_problems`` needs only the spec (``parse_spec`` calls it);
``data_problems`` needs the task sizes (the CLI checks it before a device is touched);
``replay_ram_problem`` needs the device's free RAM (checked before anything is pushed).
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from android_harness.device.paths import name_problem
from pipeline.errors import ConfigError

if TYPE_CHECKING:
    from pipeline.config import ExperimentSpec


def static_problems(spec: "ExperimentSpec") -> list[str]:
    """Problems visible in the spec alone."""
    problems = [p for p in (name_problem(spec.name, "name"),) if p]
    for i, width in enumerate(spec.model.hidden):
        if width < 1:
            problems.append(f"model.hidden[{i}]: expected a layer width >= 1, got {width}")
    return problems


def data_problems(spec: "ExperimentSpec", train_counts: Sequence[int]) -> list[str]:
    """Problems against the run's tasks (``train_counts``: training samples per task, in order)."""
    problems: list[str] = []
    if not train_counts:
        return ["data: the split produced no tasks"]
    smallest = min(train_counts)
    task = train_counts.index(smallest) + 1
    if spec.train.batch_size > smallest:
        problems.append(f"train.batch_size: {spec.train.batch_size} is larger than task {task}'s {smallest} training "
                        f"samples (every epoch would be one step of repeated rows); expected <= {smallest}")
    total = sum(train_counts)
    if spec.replay.em_size > total:
        problems.append(f"replay.em_size: {spec.replay.em_size} exceeds the {total} training samples of the whole run; "
                        f"expected <= {total}")
    return problems


def replay_bytes(em_size: int, sb_size: int, input_shape: Sequence[int], num_classes: int) -> int:
    """RAM the EM and SB hold at most: inputs, labels, ids and (DER++) stored logits, float32/int64."""
    per_sample = 4 * math.prod(input_shape) + 8 + 8 + 4 * num_classes
    return (em_size + sb_size) * per_sample


def replay_ram_problem(spec: "ExperimentSpec", input_shape: Sequence[int], num_classes: int,
                       ram_bytes: int, largest_task: int) -> str | None:
    """Whether EM + SB fit in the share of the phone's RAM the spec allows (``miro.ram_share``)."""
    need = replay_bytes(spec.replay.em_size, min(spec.replay.sb_size, largest_task), input_shape, num_classes)
    budget = int(ram_bytes * spec.miro.ram_share)
    if need > budget:
        return (f"replay.em_size + replay.sb_size: {need / 2**20:.1f} MiB of samples, more than "
                f"{spec.miro.ram_share:g} x the device's {ram_bytes / 2**20:.0f} MiB of RAM "
                f"({budget / 2**20:.1f} MiB; raise miro.ram_share or lower the sizes)")
    return None


def task_train_counts(data_folder: Path) -> list[int]:
    """Training samples per task, from a shard folder's ``tasks.json``."""
    index = json.loads((Path(data_folder) / "tasks.json").read_text())
    return [int(t["train"]["count"]) for t in index["tasks"]]


def check_against_data(spec: "ExperimentSpec", cache: Path) -> None:
    """Write (or reuse) the task shards; ``ConfigError`` (exit 2) if the spec does not fit its tasks."""
    from pipeline.experiment_prep import write_shards

    problems = data_problems(spec, task_train_counts(write_shards(spec, cache).folder))
    if problems:
        raise ConfigError(problems, source=f"spec {spec.name!r}")


def check_device_ram(spec: "ExperimentSpec", data_folder: Path, input_shape: Sequence[int], num_classes: int,
                     ram_bytes: int) -> None:
    """``ConfigError`` before anything is pushed when EM + SB cannot fit the phone's RAM share."""
    problem = replay_ram_problem(spec, input_shape, num_classes, ram_bytes, max(task_train_counts(data_folder)))
    if problem:
        raise ConfigError(problem, source=f"spec {spec.name!r}")
