"""The ``Method`` contract (mammoth's ``ContinualModel``, slimmed): one ``observe`` step per batch.

A method decides *what loss* a step optimises; ``_update`` runs backward and the optimizer step with
the policy hooks at their documented points (``after_backward`` between backward and step,
``after_step`` right after), so every method gives SparCL's policies the same view.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from pipeline.cl.policy import StepInfo, TrainingPolicy


@dataclass
class Batch:
    """Current-task samples of one step. ``classes`` are the logits the current CE may use."""

    x: torch.Tensor
    y: torch.Tensor
    indices: np.ndarray
    task: int
    classes: torch.Tensor


@dataclass
class StepResult:
    """What one step did: the loss, per-sample correctness of the current batch (DDR's input) and how
    many samples went through forward and backward (the FLOPs accounting)."""

    loss: float
    correct: np.ndarray
    forward_samples: int
    backward_samples: int


def masked_cross_entropy(logits: torch.Tensor, y: torch.Tensor, classes: torch.Tensor) -> torch.Tensor:
    """CE over the logits of ``classes`` only (SparCL's current-task CE); others are set to -inf."""
    keep = torch.zeros(logits.shape[1], dtype=torch.bool, device=logits.device)
    keep[classes] = True
    return F.cross_entropy(logits.masked_fill(~keep, float("-inf")), y)


def correct_among(logits: torch.Tensor, y: torch.Tensor, classes: torch.Tensor | None) -> np.ndarray:
    """Per-sample correctness of the argmax over ``classes`` (all logits when None)."""
    with torch.no_grad():
        if classes is None:
            pred = logits.argmax(1)
        else:
            pred = classes[logits[:, classes].argmax(1)]
        return (pred == y).cpu().numpy()


class Method(abc.ABC):
    """Base: holds the model, optimizer, policy and a numpy RNG; hooks are no-ops."""

    name = "base"
    cumulative = False   # True: trains on the union of all tasks seen so far (joint)

    def __init__(self, model: nn.Module, optimizer: torch.optim.Optimizer, policy: TrainingPolicy,
                 train, rng: np.random.Generator) -> None:
        self.model, self.opt, self.policy, self.args, self.rng = model, optimizer, policy, train, rng

    def begin_task(self, task: int, classes: np.ndarray) -> None:
        """Before the first step of ``task``."""

    def end_task(self, task: int) -> None:
        """After the last step of ``task``."""

    def set_optimizer(self, optimizer: torch.optim.Optimizer) -> None:
        self.opt = optimizer

    @abc.abstractmethod
    def observe(self, batch: Batch, info: StepInfo) -> StepResult:
        """One training step on ``batch`` (zero grads, loss, ``_update``, buffer bookkeeping)."""

    def _update(self, loss: torch.Tensor, info: StepInfo) -> None:
        """backward -> policy.after_backward -> optimizer step -> policy.after_step."""
        loss.backward()
        self.policy.after_backward(info, self.model)
        self.opt.step()
        self.policy.after_step(info, self.model)


_REGISTRY: dict[str, type[Method]] = {}


def register(name: str) -> Callable[[type[Method]], type[Method]]:
    def deco(cls: type[Method]) -> type[Method]:
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return deco


def method_class(name: str) -> type[Method]:
    from pipeline.errors import ConfigError

    if name not in _REGISTRY:
        raise ConfigError(f"train.method: unknown method {name!r} (known: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[name]
