"""Class-incremental splitting and the per-task shard folder for the device."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.config import DataSpec
from pipeline.datasets import Dataset, load_dataset, read_task_shards, split_tasks, write_task_shards
from pipeline.datasets.split import class_order
from pipeline.errors import ConfigError, DataError


@pytest.fixture(scope="module")
def digits():
    return load_dataset(DataSpec(kind="digits"), seed=0)


def test_natural_split_is_disjoint_and_complete(digits):
    tasks = split_tasks(digits, 5, 2)
    assert [t.classes.tolist() for t in tasks] == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]
    assert sum(t.n_train for t in tasks) == len(digits.y_train)
    for t in tasks:
        assert set(np.unique(t.y_train)) == set(t.classes) == set(np.unique(t.y_test))


def test_seeded_order_is_reproducible(digits):
    a = [t.classes.tolist() for t in split_tasks(digits, 5, 2, "seeded", seed=3)]
    b = [t.classes.tolist() for t in split_tasks(digits, 5, 2, "seeded", seed=3)]
    c = [t.classes.tolist() for t in split_tasks(digits, 5, 2, "seeded", seed=4)]
    assert a == b and a != c and sorted(sum(a, [])) == list(range(10))
    assert class_order(10, 4, "seeded", 3).tolist() == sum(a, [])[:4]


def test_too_many_classes_is_a_config_error(digits):
    with pytest.raises(ConfigError, match="data.tasks x data.classes_per_task = 12"):
        split_tasks(digits, 6, 2)


def test_task_shards_round_trip_and_tamper(digits, tmp_path):
    tasks = split_tasks(digits, 3, 2)
    index = write_task_shards(tasks, digits, tmp_path)
    back = read_task_shards(tmp_path)
    for a, b in zip(tasks, back):
        assert np.array_equal(a.classes, b.classes) and np.array_equal(a.x_train, b.x_train)
        assert np.array_equal(a.y_test, b.y_test)
    assert index.name == "tasks.json" and (tmp_path / "task2_test.shard").is_file()
    path = tmp_path / "task1_train.shard"
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(DataError, match="task1_train.shard: record"):
        read_task_shards(tmp_path)


def _tiny(y_train: list[int], y_test: list[int], num_classes: int) -> Dataset:
    return Dataset("tiny", np.zeros((len(y_train), 2), np.float32), np.array(y_train), np.zeros((len(y_test), 2), np.float32),
                   np.array(y_test), (2,), num_classes, "test", class_names=[f"c{i}" for i in range(num_classes)])


def test_a_class_without_training_samples_is_an_error_naming_it():
    with pytest.raises(DataError, match=r"class 3 \('c3'\) of tiny has no training sample \(1 test\)"):
        split_tasks(_tiny([0, 1, 2], [0, 1, 2, 3], 4), 2, 2)


def test_a_class_without_test_samples_and_unused_classes_are_said():
    said: list[str] = []
    tasks = split_tasks(_tiny([0, 0, 1, 1, 2, 3, 4], [0, 2, 3], 5), 2, 2, warn=said.append)
    assert [t.classes.tolist() for t in tasks] == [[0, 1], [2, 3]]
    assert said == ["data: class 1 ('c1') of tiny has no test sample (2 train): it counts in no accuracy; "
                    "give it at least 2 samples",
                    "data: 1 of 5 classes are in no task (class 4 ('c4')): data.tasks x data.classes_per_task = 4; "
                    "they are left out of training but the classifier keeps 5 outputs"]
