"""Class-incremental splitting: a dataset becomes ``tasks`` disjoint groups of ``classes_per_task`` classes.

Labels keep their dataset values (a single head over all classes, as in mammoth); ``Task.classes``
says which logits belong to the task, for task-IL evaluation and current-task-only CE.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

from pipeline.datasets.dataset import Dataset
from pipeline.errors import ConfigError, DataError


@dataclass
class Task:
    """One task's classes and its train/test samples (arrays copied out of the dataset)."""

    index: int
    classes: np.ndarray
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray

    @property
    def n_train(self) -> int:
        return len(self.y_train)


def class_order(num_classes: int, n_used: int, mode: str, seed: int) -> np.ndarray:
    """The first ``n_used`` classes in natural order, or a seeded permutation of all classes."""
    if n_used > num_classes:
        raise ConfigError(f"data.tasks x data.classes_per_task = {n_used}, but the dataset has only {num_classes} classes")
    if mode == "natural":
        return np.arange(n_used, dtype=np.int64)
    if mode == "seeded":
        return np.random.default_rng(seed).permutation(num_classes)[:n_used].astype(np.int64)
    raise ConfigError(f"data.class_order: expected 'natural' or 'seeded', got {mode!r}")


def _class_label(ds: Dataset, c: int) -> str:
    return f"class {c} ({ds.class_names[c]!r})" if c < len(ds.class_names) else f"class {c}"


def check_classes(ds: Dataset, used: np.ndarray, warn: Callable[[str], None]) -> None:
    """A class of a task with no training sample is an error (its task would train without it); one with no
    test sample, or a class no task uses, is said (it counts nowhere in the accuracy, resp. trains nowhere)."""
    for c in used.tolist():
        n_train, n_test = int((ds.y_train == c).sum()), int((ds.y_test == c).sum())
        if n_train == 0:
            raise DataError(f"data: {_class_label(ds, c)} of {ds.name} has no training sample ({n_test} test); "
                            "give it samples, or leave it out (data.tasks x data.classes_per_task)")
        if n_test == 0:
            warn(f"data: {_class_label(ds, c)} of {ds.name} has no test sample ({n_train} train): "
                 "it counts in no accuracy; give it at least 2 samples")
    unused = sorted(set(range(ds.num_classes)) - set(used.tolist()))
    if unused:
        names = ", ".join(_class_label(ds, c) for c in unused[:5]) + (f" and {len(unused) - 5} more" if len(unused) > 5 else "")
        warn(f"data: {len(unused)} of {ds.num_classes} classes are in no task ({names}): data.tasks x "
             f"data.classes_per_task = {len(used)}; they are left out of training but the classifier keeps "
             f"{ds.num_classes} outputs")


def _stderr(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def split_tasks(ds: Dataset, tasks: int, classes_per_task: int, order: str = "natural", seed: int = 0,
                warn: Callable[[str], None] = _stderr) -> list[Task]:
    """Cut ``ds`` into class-incremental tasks; every task must have training and test samples."""
    classes = class_order(ds.num_classes, tasks * classes_per_task, order, seed).reshape(tasks, classes_per_task)
    check_classes(ds, classes.ravel(), warn)
    out = []
    for t, cls in enumerate(classes):
        tr, te = np.isin(ds.y_train, cls), np.isin(ds.y_test, cls)
        if not tr.any() or not te.any():
            raise ConfigError(f"data: task {t + 1} (classes {cls.tolist()}) has {int(tr.sum())} train / "
                              f"{int(te.sum())} test samples in {ds.name}; expected both > 0")
        out.append(Task(t, cls.copy(), ds.x_train[tr], ds.y_train[tr], ds.x_test[te], ds.y_test[te]))
    return out


def split_from_spec(ds: Dataset, data, seed: int) -> list[Task]:
    """``split_tasks`` with the numbers of a ``DataSpec``."""
    return split_tasks(ds, data.tasks, data.classes_per_task, data.class_order, seed)
