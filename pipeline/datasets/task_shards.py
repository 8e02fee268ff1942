"""A class-incremental run as files for the device: one train and one test shard per task plus
``tasks.json`` (classes, counts, sha256 of every shard, normalisation statistics). Numpy-only."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.fileio import sha256_file, write_text_atomic
from pipeline.datasets.dataset import Dataset
from android_harness.device.shards import read_shard, write_shard
from pipeline.datasets.split import Task
from pipeline.errors import DataError

INDEX_NAME = "tasks.json"


def write_task_shards(tasks: list[Task], ds: Dataset, folder: str | Path) -> Path:
    """Write ``task{t}_{train,test}.shard`` and the ``tasks.json`` index into ``folder``; return the index path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for task in tasks:
        entry: dict[str, Any] = {"index": task.index, "classes": task.classes.tolist()}
        for split, x, y in (("train", task.x_train, task.y_train), ("test", task.x_test, task.y_test)):
            name = f"task{task.index}_{split}.shard"
            write_shard(folder / name, x.astype(np.float32), y, {"task": task.index, "split": split,
                                                                  "classes": task.classes.tolist()})
            entry[split] = {"file": name, "count": int(len(y)), "sha256": sha256_file(folder / name)}
        entries.append(entry)
    index = {
        "dataset": ds.name, "source": ds.source, "num_classes": ds.num_classes,
        "input_shape": list(ds.input_shape), "class_names": ds.class_names,
        "mean": None if ds.mean is None else ds.mean.tolist(), "std": None if ds.std is None else ds.std.tolist(),
        "tasks": entries,
    }
    write_text_atomic(folder / INDEX_NAME, json.dumps(index, indent=1))
    return folder / INDEX_NAME


def load_task_index(folder: str | Path) -> dict[str, Any]:
    """The ``tasks.json`` written by ``write_task_shards``."""
    path = Path(folder) / INDEX_NAME
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise DataError(f"{path}: task index missing (write it with write_task_shards)") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON ({exc})") from None


def read_task_shards(folder: str | Path) -> list[Task]:
    """Tasks back from a shard folder, each shard checked against its sha256 and record checksums."""
    folder = Path(folder)
    index = load_task_index(folder)
    tasks = []
    for entry in index["tasks"]:
        arrays = []
        for split in ("train", "test"):
            path = folder / entry[split]["file"]
            if not path.is_file():
                raise DataError(f"{path}: shard listed in {INDEX_NAME} is missing")
            if sha256_file(path) != entry[split]["sha256"]:
                read_shard(path)  # raises naming the corrupted record when it can
                raise DataError(f"{path}: sha256 differs from {INDEX_NAME}")
            x, y, _ = read_shard(path)
            arrays += [x, y]
        tasks.append(Task(int(entry["index"]), np.asarray(entry["classes"], np.int64), *arrays))
    return tasks
