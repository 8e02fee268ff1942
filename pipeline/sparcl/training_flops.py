"""Training FLOPs of a torch model: dense per-layer FLOPs from its real shapes, counted per step.

``layer_flops`` hands plain numbers to the numpy ``FlopsCounter``: FLOPs = 2 x multiply-accumulates
of each Conv1d / Conv2d / Linear for ONE sample (biases, norms, activations, pooling not counted).
``FlopsPolicy`` counts every forward/backward the trainer actually runs, without trainer support: a
forward pre-hook on the model adds up the samples of every training forward (train mode, autograd
on; evaluation runs are excluded), and ``after_backward`` charges them at the step's densities
(TDM weight masks, DGM gradient masks). Put it AFTER the SparCL policy in a ``PolicyStack`` so DGM
has refreshed its masks for the step being counted.

Structured masks are charged like unstructured ones (a layer at channel density d costs d * F_l);
the input channels a sliced export also removes from the consuming layer are NOT credited, so
structured FLOPs are an upper bound of what the physically smaller model computes.
"""
from __future__ import annotations

import math

import torch
from torch import nn

from pipeline.cl.policy import StepInfo, TrainingPolicy
from pipeline.sparcl.core import FlopsCounter

_WEIGHT_LAYERS = (nn.Conv1d, nn.Conv2d, nn.Linear)


def layer_flops(model: nn.Module, input_shape: tuple[int, ...]) -> dict[str, float]:
    """Module name -> dense forward FLOPs per sample, for every conv/linear layer the forward uses."""
    flops: dict[str, float] = {}
    hooks = []

    def hook_for(name: str, module: nn.Module):
        def hook(mod, inputs, output):
            per_out = mod.in_features if isinstance(mod, nn.Linear) else (mod.in_channels // mod.groups) * math.prod(mod.kernel_size)
            flops[name] = flops.get(name, 0.0) + 2.0 * output[0].numel() * per_out
        return hook

    for name, module in model.named_modules():
        if isinstance(module, _WEIGHT_LAYERS):
            hooks.append(module.register_forward_hook(hook_for(name, module)))
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


class FlopsPolicy(TrainingPolicy):
    """Training-FLOPs counter; ``sparcl`` is the SparCL policy whose densities apply (None = dense)."""

    name = "flops"

    def __init__(self, sparcl: TrainingPolicy | None = None) -> None:
        self.sparcl = sparcl
        self.counter: FlopsCounter | None = None
        self.per_task: list[float] = []
        self._pending = 0
        self._input_shape: tuple[int, ...] | None = None
        self._hooked: nn.Module | None = None
        self._handle = None

    def _pre_forward(self, module: nn.Module, args) -> None:
        if module.training and torch.is_grad_enabled() and args:
            self._pending += int(args[0].shape[0])
            self._input_shape = tuple(args[0].shape[1:])

    def _attach(self, model: nn.Module) -> None:
        if self._hooked is not model:
            if self._handle is not None:
                self._handle.remove()
            self._handle = model.register_forward_pre_hook(self._pre_forward)
            self._hooked = model

    def on_task_start(self, info: StepInfo, model, n_samples: int) -> None:
        self._attach(model)
        self.per_task.append(0.0)

    def after_backward(self, info: StepInfo, model) -> None:
        self._attach(model)
        if not self._pending:
            return
        if self.counter is None:
            self.counter = FlopsCounter(layer_flops(model, self._input_shape))
        wd = self.sparcl.weight_density() if hasattr(self.sparcl, "weight_density") else None
        gd = self.sparcl.grad_density() if hasattr(self.sparcl, "grad_density") else None
        added = self.counter.add_step(self._pending, 0, wd, gd)
        if self.per_task:
            self.per_task[-1] += added
        self._pending = 0

    def on_task_end(self, info: StepInfo, model) -> None:
        """Detach the hook, so a model handed on (export, evaluation elsewhere) carries nothing of ours."""
        if self._handle is not None:
            self._handle.remove()
        self._handle, self._hooked = None, None

    @property
    def total(self) -> float:
        return self.counter.total if self.counter is not None else 0.0

    def as_dict(self) -> dict:
        out = self.counter.as_dict() if self.counter is not None else {"total": 0.0}
        return {**out, "per_task": list(self.per_task)}

    def state_dict(self) -> dict:
        if self.counter is None:
            return {}
        return {"counter": self.counter.state_dict(), "dense_flops": dict(self.counter.dense_flops),
                "per_task": list(self.per_task)}

    def load_state_dict(self, state: dict) -> None:
        if state:
            self.counter = FlopsCounter(state["dense_flops"])
            self.counter.load_state_dict(state["counter"])
            self.per_task = [float(v) for v in state.get("per_task", [])]
