"""Training-FLOPs accounting under the project's SparCL convention (plain Python, device-safe).

``dense_flops`` maps every weight layer (conv / linear) to F_l, its dense forward FLOPs for one
sample (2 x multiply-accumulates, read from the model's real shapes; norms, activations, pooling
and biases are not counted). For one sample, with weight density d_l = 1 - s_l and weight-gradient
density q_l (DGM's mask density, else d_l):

    forward  = sum_l d_l * F_l
    backward = sum_l d_l * F_l   (activation gradients)  +  sum_l q_l * F_l   (weight gradients)

so a dense step costs 3F. Layers without a mask are dense (d_l = q_l = 1). The counter adds one
term per forward/backward actually run: the current-task samples of the step (fewer once DDR has
removed data) and every replay-buffer draw (ER: one, DER++: two).
"""
from __future__ import annotations

from typing import Mapping


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

    def per_sample(
        self, weight_density: Mapping[str, float] | None = None, grad_density: Mapping[str, float] | None = None
    ) -> tuple[float, float]:
        """(forward, backward) FLOPs of one sample at the given per-layer densities."""
        wd = weight_density or {}
        gd = grad_density or {}
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

    def add(
        self,
        n_samples: int,
        weight_density: Mapping[str, float] | None = None,
        grad_density: Mapping[str, float] | None = None,
        backward: bool = True,
    ) -> float:
        """Count ``n_samples`` forwarded (and backwarded) at these densities; return the FLOPs added."""
        fwd, bwd = self.per_sample(weight_density, grad_density)
        self.forward += n_samples * fwd
        self.samples += int(n_samples)
        added = n_samples * fwd
        if backward:
            self.backward += n_samples * bwd
            added += n_samples * bwd
        return added

    def add_step(
        self,
        n_current: int,
        n_buffer: int,
        weight_density: Mapping[str, float] | None = None,
        grad_density: Mapping[str, float] | None = None,
    ) -> float:
        """One optimizer step: current samples plus all buffer draws, each forwarded and backwarded."""
        self.steps += 1
        return self.add(n_current + n_buffer, weight_density, grad_density)

    @property
    def total(self) -> float:
        return self.forward + self.backward

    def as_dict(self) -> dict:
        return {"forward": self.forward, "backward": self.backward, "total": self.total,
                "samples": self.samples, "steps": self.steps, "dense_forward_per_sample": self.dense_forward}

    def state_dict(self) -> dict:
        return {"forward": self.forward, "backward": self.backward, "samples": self.samples, "steps": self.steps}

    def load_state_dict(self, state: Mapping) -> None:
        self.forward = float(state["forward"])
        self.backward = float(state["backward"])
        self.samples = int(state["samples"])
        self.steps = int(state["steps"])
