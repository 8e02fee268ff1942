"""The task shards a session trains and evaluates on (``tasks.json`` + ``task<k>_{train,test}.shard``)."""
from __future__ import annotations

import json
import os

import numpy as np

from android_harness.device.errors import SessionSpecError
from android_harness.device.shards import read_shard


class TaskData:
    """Reads shards lazily; test shards are cached (evaluated after every task)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        path = os.path.join(folder, "tasks.json")
        try:
            with open(path) as f:
                self.index = json.load(f)
        except FileNotFoundError:
            raise SessionSpecError(f"{path}: task index missing (deploy pushes it with the shards)") from None
        self.entries = {int(e["index"]): e for e in self.index["tasks"]}
        self.order = [int(e["index"]) for e in self.index["tasks"]]
        self.num_classes = int(self.index["num_classes"])
        self.input_shape = tuple(self.index["input_shape"])
        self._test: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def _entry(self, task: int) -> dict:
        if task not in self.entries:
            raise SessionSpecError(f"tasks: task {task} is not in {self.folder}/tasks.json (has {self.order})")
        return self.entries[task]

    def classes(self, task: int) -> np.ndarray:
        return np.asarray(self._entry(task)["classes"], np.int64)

    def seen_tasks(self, task: int) -> list[int]:
        """Tasks up to and including ``task`` in the run's order."""
        return self.order[: self.order.index(task) + 1]

    def train(self, task: int) -> tuple[np.ndarray, np.ndarray]:
        x, y, _ = read_shard(os.path.join(self.folder, self._entry(task)["train"]["file"]))
        return x.astype(np.float32, copy=False), y.astype(np.int64, copy=False)

    def test(self, task: int) -> tuple[np.ndarray, np.ndarray]:
        if task not in self._test:
            x, y, _ = read_shard(os.path.join(self.folder, self._entry(task)["test"]["file"]))
            self._test[task] = (x.astype(np.float32, copy=False), y.astype(np.int64, copy=False))
        return self._test[task]


def sample_ids(task: int, rows: np.ndarray) -> np.ndarray:
    """Run-wide unique sample ids: task in the high bits, the row of the task's train shard below."""
    return (np.int64(task) << np.int64(32)) | np.asarray(rows, np.int64)
