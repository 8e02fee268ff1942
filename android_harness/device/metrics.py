"""Continual-learning metrics on numpy arrays (no torch): the engine (host and device) and the
reports compute them with this same code.

``A[i, j]`` = accuracy (%) on task j's test set after training task i (NaN for j > i). Class-IL
predicts among every class seen so far; task-IL among task j's classes only.
"""
from __future__ import annotations

import numpy as np


def masked_predictions(logits: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Argmax over the ``allowed`` classes only (ties: the lowest class; labels keep their dataset values)."""
    allowed = np.sort(np.asarray(allowed, np.int64))
    return allowed[np.argmax(logits[:, allowed], axis=1)]


def accuracy(pred: np.ndarray, y: np.ndarray) -> float:
    """Percent correct (0 for an empty set)."""
    return float(100.0 * np.mean(pred == y)) if len(y) else 0.0


def correct_counts(logits: np.ndarray, y: np.ndarray, task_classes: np.ndarray,
                   seen_classes: np.ndarray) -> tuple[int, int]:
    """(class-IL, task-IL) numbers of correct test samples (docs/semantics.md 6.2)."""
    return (int(np.sum(masked_predictions(logits, seen_classes) == y)),
            int(np.sum(masked_predictions(logits, task_classes) == y)))


def task_accuracies(logits: np.ndarray, y: np.ndarray, task_classes: np.ndarray,
                    seen_classes: np.ndarray) -> tuple[float, float]:
    """(class-IL, task-IL) accuracy of one task's test logits."""
    return (accuracy(masked_predictions(logits, seen_classes), y),
            accuracy(masked_predictions(logits, task_classes), y))


def empty_matrix(tasks: int) -> np.ndarray:
    return np.full((tasks, tasks), np.nan)


def average_accuracy(matrix: np.ndarray) -> np.ndarray:
    """Mean accuracy over the tasks seen after each task (row i averages A[i, :i+1])."""
    return np.array([np.mean(matrix[i, : i + 1]) for i in range(len(matrix))])


def forgetting(matrix: np.ndarray) -> float:
    """Mean over tasks but the last of (best earlier accuracy - final accuracy) (Chaudhry et al.)."""
    t = len(matrix)
    if t < 2:
        return 0.0
    return float(np.mean([np.max(matrix[j:t - 1, j]) - matrix[t - 1, j] for j in range(t - 1)]))


def backward_transfer(matrix: np.ndarray) -> float:
    """Mean over tasks but the last of (final accuracy - accuracy right after learning it) (Lopez-Paz)."""
    t = len(matrix)
    if t < 2:
        return 0.0
    return float(np.mean([matrix[t - 1, j] - matrix[j, j] for j in range(t - 1)]))


def summarize(class_il: np.ndarray, task_il: np.ndarray) -> dict[str, float]:
    """The headline numbers of a run, after its last trained task."""
    last = int(np.max(np.flatnonzero(~np.isnan(np.diag(class_il)))) if np.any(~np.isnan(np.diag(class_il))) else -1)
    if last < 0:
        return {}
    ci, ti = class_il[: last + 1, : last + 1], task_il[: last + 1, : last + 1]
    return {
        "class_il": float(average_accuracy(ci)[-1]), "task_il": float(average_accuracy(ti)[-1]),
        "forgetting_class_il": forgetting(ci), "forgetting_task_il": forgetting(ti),
        "bwt_class_il": backward_transfer(ci), "bwt_task_il": backward_transfer(ti),
    }
