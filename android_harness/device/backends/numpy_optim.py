"""SGD and AdamW in numpy, with PyTorch's update rules (``torch.optim.SGD`` / ``AdamW``).

Used by the ExecuTorch backend, whose binding exposes parameters and gradients but whose C++
optimizers are not reachable for AdamW from Python; updates are in place on the runtime's memory.
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
            g = grads[name].astype(np.float32, copy=False)
            if self.kind == "sgd":
                self._sgd(name, p, g, lr)
            else:
                self._adamw(name, p, g, lr)

    def _sgd(self, name: str, p: np.ndarray, g: np.ndarray, lr: float) -> None:
        if self.weight_decay:
            g = g + np.float32(self.weight_decay) * p
        if self.momentum:
            buf = self.state.get("momentum/" + name)
            buf = g.copy() if buf is None else buf * np.float32(self.momentum) + g
            self.state["momentum/" + name] = buf
            g = buf
        p -= np.float32(lr) * g

    def _adamw(self, name: str, p: np.ndarray, g: np.ndarray, lr: float) -> None:
        b1, b2 = self.betas
        t = self.step_count
        p *= np.float32(1.0 - lr * self.weight_decay)
        m = self.state.get("m/" + name, np.zeros_like(p)) * np.float32(b1) + np.float32(1 - b1) * g
        v = self.state.get("v/" + name, np.zeros_like(p)) * np.float32(b2) + np.float32(1 - b2) * g * g
        self.state["m/" + name], self.state["v/" + name] = m, v
        step_size = lr / (1 - b1 ** t)
        denom = np.sqrt(v) / np.float32(np.sqrt(1 - b2 ** t)) + np.float32(self.eps)
        p -= np.float32(step_size) * m / denom

    def clear_state_where(self, where: dict[str, np.ndarray]) -> None:
        """Zero the optimizer state (moments, momentum) of the marked entries of each parameter."""
        for key, value in self.state.items():
            name = key.split("/", 1)[1]
            if name in where:
                value[where[name]] = 0.0

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {**{"opt/" + k: v for k, v in self.state.items()}, "opt_step": np.array(self.step_count)}

    def load_state_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.state = {k[4:]: np.array(v) for k, v in arrays.items() if k.startswith("opt/")}
        self.step_count = int(arrays.get("opt_step", 0))
