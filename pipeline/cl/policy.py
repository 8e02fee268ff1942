"""The hook contract between the CL trainers (host reference, device runner) and training policies.

SparCL's TDM, DDR and DGM are policies, not methods: a method (ER, DER++) decides *what loss* a
step optimises; a policy decides *which weights, gradients and samples* take part. Every hook is
optional (``TrainingPolicy`` gives no-op defaults), so policies compose (``PolicyStack``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class StepInfo:
    """Where training is, as every hook sees it."""

    task: int                  # 0-based task index
    epoch: int                 # 0-based epoch within the task
    epochs: int                # epochs in this task
    iteration: int             # global optimizer step count (over the whole run)
    task_iteration: int = 0    # optimizer steps within this task
    iters_per_epoch: int = 0   # steps in one epoch of this task (after data removal)

    @property
    def progress(self) -> float:
        """Fraction of the task's epochs completed, in [0, 1)."""
        return self.epoch / max(self.epochs, 1)


class TrainingPolicy:
    """No-op base: override only the hooks a policy needs. ``model`` is a torch module on the host."""

    name = "none"

    def on_task_start(self, info: StepInfo, model, n_samples: int) -> None:
        """A new task begins with ``n_samples`` current-task training samples."""

    def on_epoch_start(self, info: StepInfo, model) -> None:
        """Before the first step of an epoch (mask schedule points live here)."""

    def select_data(self, info: StepInfo, indices: np.ndarray) -> np.ndarray:
        """Which current-task sample indices (into the task's training set) this epoch trains on."""
        return indices

    def observe_predictions(self, info: StepInfo, indices: np.ndarray, correct: np.ndarray) -> None:
        """Per-sample correctness of the current-task part of the batch (DDR's forgetting events)."""

    def after_backward(self, info: StepInfo, model) -> None:
        """Gradients are in ``.grad``; the optimizer has not stepped yet (DGM masks here, TDM keeps them)."""

    def after_step(self, info: StepInfo, model) -> None:
        """The optimizer stepped (TDM re-zeroes pruned weights here)."""

    def on_task_end(self, info: StepInfo, model) -> None:
        """After the last step of the task."""

    def state_dict(self) -> dict:
        """Everything needed to resume (masks, statistics), as numpy arrays and plain values."""
        return {}

    def load_state_dict(self, state: dict) -> None:
        """Inverse of ``state_dict``."""


class PolicyStack(TrainingPolicy):
    """Several policies run in order on every hook; ``select_data`` chains."""

    name = "stack"

    def __init__(self, policies: list[TrainingPolicy]) -> None:
        self.policies = list(policies)

    def on_task_start(self, info, model, n_samples):
        for p in self.policies:
            p.on_task_start(info, model, n_samples)

    def on_epoch_start(self, info, model):
        for p in self.policies:
            p.on_epoch_start(info, model)

    def select_data(self, info, indices):
        for p in self.policies:
            indices = p.select_data(info, indices)
        return indices

    def observe_predictions(self, info, indices, correct):
        for p in self.policies:
            p.observe_predictions(info, indices, correct)

    def after_backward(self, info, model):
        for p in self.policies:
            p.after_backward(info, model)

    def after_step(self, info, model):
        for p in self.policies:
            p.after_step(info, model)

    def on_task_end(self, info, model):
        for p in self.policies:
            p.on_task_end(info, model)

    def state_dict(self) -> dict:
        return {p.name: p.state_dict() for p in self.policies}

    def load_state_dict(self, state: dict) -> None:
        for p in self.policies:
            p.load_state_dict(state.get(p.name, {}))
