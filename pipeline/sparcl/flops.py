"""Training-FLOPs accounting under the project's SparCL convention (host side).

``layer_flops`` maps every weight layer (conv / linear) to F_l, its dense forward FLOPs for one
sample (2 x multiply-accumulates, read from the model's real shapes; norms, activations, pooling
and biases are not counted). For one sample, with weight density d_l = 1 - s_l and weight-gradient
density q_l (DGM's mask density, else d_l):

    forward  = sum_l d_l * F_l
    backward = sum_l d_l * F_l   (activation gradients)  +  sum_l q_l * F_l   (weight gradients)

so a dense step costs 3F per row. Layers without a mask are dense (d_l = q_l = 1). ``FlopsObserver``
watches the engine: every step charges its ``B`` rows at the weight masks and gradient masks that
step used (fewer steps once DDR removed data, more with a larger EM). Structured masks are charged
like unstructured ones; the input channels a sliced export also removes are not credited, so
structured FLOPs are an upper bound of what the physically smaller model computes.
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import torch
from torch import nn

from android_harness.device.engine import EngineObserver

_WEIGHT_LAYERS = (nn.Conv1d, nn.Conv2d, nn.Linear)


def layer_flops(model: nn.Module, input_shape: tuple[int, ...]) -> dict[str, float]:
    """Module name -> dense forward FLOPs per sample, for every conv/linear layer the forward uses."""
    flops: dict[str, float] = {}
    hooks = []

    def hook_for(name: str):
        def hook(mod, inputs, output):
            per_out = mod.in_features if isinstance(mod, nn.Linear) else (mod.in_channels // mod.groups) * math.prod(mod.kernel_size)
            flops[name] = flops.get(name, 0.0) + 2.0 * output[0].numel() * per_out
        return hook

    for name, module in model.named_modules():
        if isinstance(module, _WEIGHT_LAYERS):
            hooks.append(module.register_forward_hook(hook_for(name)))
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            model(torch.zeros((1, *input_shape)))
    finally:
        for h in hooks:
            h.remove()
        model.train(was_training)
    return flops


class FlopsCounter:
    """Accumulates training FLOPs step by step; ``dense_flops`` in FLOPs per sample per layer."""

    def __init__(self, dense_flops: Mapping[str, float]) -> None:
        self.dense_flops = {k: float(v) for k, v in dense_flops.items()}
        self.forward = 0.0
        self.backward = 0.0
        self.samples = 0
        self.steps = 0

    @property
    def dense_forward(self) -> float:
        """F: dense forward FLOPs of one sample."""
        return sum(self.dense_flops.values())

    def per_sample(self, weight_density: Mapping[str, float] | None = None,
                   grad_density: Mapping[str, float] | None = None) -> tuple[float, float]:
        """(forward, backward) FLOPs of one sample at the given per-layer densities."""
        wd, gd = weight_density or {}, grad_density or {}
        unknown = (set(wd) | set(gd)) - set(self.dense_flops)
        if unknown:
            raise KeyError(f"densities given for layers without FLOPs: {sorted(unknown)}")
        fwd = bwd = 0.0
        for name, f in self.dense_flops.items():
            d = wd.get(name, 1.0)
            q = gd.get(name, d)
            fwd += d * f
            bwd += d * f + q * f
        return fwd, bwd

    def add_step(self, rows: int, weight_density: Mapping[str, float] | None = None,
                 grad_density: Mapping[str, float] | None = None) -> float:
        """One optimizer step over ``rows`` samples, each forwarded and backwarded; returns the FLOPs added."""
        fwd, bwd = self.per_sample(weight_density, grad_density)
        self.steps += 1
        self.samples += int(rows)
        self.forward += rows * fwd
        self.backward += rows * bwd
        return rows * (fwd + bwd)

    @property
    def total(self) -> float:
        return self.forward + self.backward

    def as_dict(self) -> dict:
        return {"forward": self.forward, "backward": self.backward, "total": self.total,
                "samples": self.samples, "steps": self.steps, "dense_forward_per_sample": self.dense_forward}


def _layer(param: str) -> str:
    return param.rsplit(".", 1)[0]


class FlopsObserver(EngineObserver):
    """Counts the engine's training FLOPs per task (an ``EngineObserver``: it never changes the run)."""

    def __init__(self, dense_flops: Mapping[str, float]) -> None:
        self.counter = FlopsCounter(dense_flops)
        self.per_task: dict[int, float] = {}

    def on_step(self, task: int, rows: int, loss: np.float32, weight_masks: dict[str, np.ndarray],
                grad_masks: dict[str, np.ndarray] | None) -> None:
        wd = {_layer(n): float(m.mean()) for n, m in weight_masks.items()}
        gd = {_layer(n): float(m.mean()) for n, m in grad_masks.items()} if grad_masks else None
        self.per_task[task] = self.per_task.get(task, 0.0) + self.counter.add_step(rows, wd, gd)

    @property
    def total(self) -> float:
        return self.counter.total

    def as_dict(self) -> dict:
        return {**self.counter.as_dict(), "per_task": [self.per_task[t] for t in sorted(self.per_task)]}
