"""Continual-learning core. This package's top level is numpy-only (shared with the device runner);
the torch parts live in ``pipeline.cl.methods`` and ``pipeline.cl.trainer`` and are imported from there."""
from pipeline.cl.metrics import average_accuracy, backward_transfer, forgetting, summarize, task_accuracies
from pipeline.cl.policy import PolicyStack, StepInfo, TrainingPolicy
from pipeline.cl.reservoir import BufferDraw, ReservoirBuffer, reservoir_slot
from pipeline.cl.results import CLResult, TaskCost
from pipeline.cl.sampling import epoch_batches, iterations_per_epoch

__all__ = [
    "BufferDraw", "CLResult", "PolicyStack", "ReservoirBuffer", "StepInfo", "TaskCost", "TrainingPolicy",
    "average_accuracy", "backward_transfer", "epoch_batches", "forgetting", "iterations_per_epoch",
    "reservoir_slot", "summarize", "task_accuracies",
]
