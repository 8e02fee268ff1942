"""SGD and AdamW in numpy float32, in place (docs/semantics.md 4.7; PyTorch's ``SGD`` / ``AdamW`` rules).

Used where the runtime exposes parameters and gradients but not its optimizer (the ExecuTorch
binding) and by the host's torch-eager backend, so both apply the very same float32 update:
``sgd``: ``g' = g + f32(wd) * p`` (wd > 0); ``buf = g'`` at a buffer's first step else
``buf = buf * f32(momentum) + g'``, ``g' = buf`` (momentum > 0); ``p = p - f32(lr) * g'``.
State arrays are named as in a checkpoint: ``opt.momentum.<name>``, ``opt.m.<name>``, ``opt.v.<name>``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class NumpyOptimizer:
    kind: str = "sgd"  # "sgd" | "adamw"
    momentum: float = 0.0
    weight_decay: float = 0.0
    betas: tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8
    step_count: int = 0
    state: dict[str, np.ndarray] = field(default_factory=dict)

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray], lr: float) -> None:
        """Update ``params`` in place (the arrays may be views of the runtime's weights)."""
        self.step_count += 1
        for name, p in params.items():
            g = np.asarray(grads[name], dtype=np.float32)
            if self.kind == "sgd":
                self._sgd(name, p, g, lr)
            else:
                self._adamw(name, p, g, lr)

    def _sgd(self, name: str, p: np.ndarray, g: np.ndarray, lr: float) -> None:
        if self.weight_decay:
            g = g + np.float32(self.weight_decay) * p
        if self.momentum:
            key = "opt.momentum." + name
            buf = self.state.get(key)
            buf = g.copy() if buf is None else buf * np.float32(self.momentum) + g
            self.state[key] = buf
            g = buf
        p -= np.float32(lr) * g

    def _adamw(self, name: str, p: np.ndarray, g: np.ndarray, lr: float) -> None:
        b1, b2 = self.betas
        t = self.step_count
        p *= np.float32(1.0 - lr * self.weight_decay)
        m = self.state.get("opt.m." + name, np.zeros_like(p)) * np.float32(b1) + np.float32(1 - b1) * g
        v = self.state.get("opt.v." + name, np.zeros_like(p)) * np.float32(b2) + np.float32(1 - b2) * g * g
        self.state["opt.m." + name], self.state["opt.v." + name] = m, v
        step_size = lr / (1 - b1 ** t)
        denom = np.sqrt(v) / np.float32(np.sqrt(1 - b2 ** t)) + np.float32(self.eps)
        p -= np.float32(step_size) * m / denom

    def clear_state_where(self, where: dict[str, np.ndarray]) -> None:
        """Zero the state (moments, momentum) of the marked entries of each parameter."""
        for key, value in self.state.items():
            name = key.split(".", 2)[2]
            if name in where:
                value[where[name]] = 0.0

    def arrays(self) -> tuple[dict[str, np.ndarray], int]:
        return {k: v.copy() for k, v in self.state.items()}, self.step_count

    def load_arrays(self, arrays: dict[str, np.ndarray], step: int) -> None:
        self.state = {k: np.array(v, dtype=np.float32) for k, v in arrays.items() if k.startswith("opt.")}
        self.step_count = int(step)

    @classmethod
    def from_config(cls, cfg) -> "NumpyOptimizer":
        return cls(cfg.name, cfg.momentum, cfg.weight_decay, tuple(cfg.betas), cfg.eps)
