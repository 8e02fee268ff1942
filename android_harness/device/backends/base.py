"""The interface every training backend offers the engine (docs/semantics.md 4.4-4.8).

A step is three calls, so the engine sees the RAW gradient before anything masks it:

    out = backend.forward_backward(inputs)      # 4.4: loss, logits, BatchNorm batch stats; raw grads kept
    g = backend.raw_grads(names)                # the raw gradient of those parameters (views; copy to keep)
    backend.apply_update(lr, grad_masks)        # 4.5 + 4.7: optimizer step on g * grad_mask (DGM)
    backend.update_norm_stats(out.stats)        # 4.8: r = (1 - m) r + m * stat, float32

Weight masks (TDM) are inputs of every step; ``set_masks`` also zeroes the weights and optimizer
state outside them. ``state_arrays``/``load_state_arrays`` give the checkpoint's ``param.*``,
``buffer.*``, ``mask.*`` and ``opt.*`` arrays (docs/semantics.md 10).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.backends.signature import TrainingSignature


@dataclass
class StepOut:
    loss: np.float32
    logits: np.ndarray          # [B, C]
    stats: list[np.ndarray]     # per BatchNorm layer: batch mean, unbiased batch variance


@dataclass(frozen=True)
class OptimizerConfig:
    """The export's optimizer (``manifest.json``): what ``apply_update`` runs."""

    name: str = "sgd"
    momentum: float = 0.0
    weight_decay: float = 0.0
    betas: tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8

    @classmethod
    def from_manifest(cls, manifest: dict[str, Any]) -> "OptimizerConfig":
        opt = manifest.get("optimizer", {})
        return cls(opt.get("name", "sgd"), float(opt.get("momentum", 0.0)), float(opt.get("weight_decay", 0.0)),
                   tuple(opt.get("betas", (0.9, 0.999))), float(opt.get("eps", 1e-8)))

    @property
    def plain_sgd(self) -> bool:
        return self.name == "sgd" and not self.momentum and not self.weight_decay


class TrainingBackend(ABC):
    """Common state: signature, current weight masks, BatchNorm running statistics, optimizer config."""

    runtime = ""

    def __init__(self, signature: TrainingSignature, initial: dict[str, np.ndarray], norm_momentum: dict[str, float],
                 optimizer: OptimizerConfig) -> None:
        self.signature, self.optimizer_config = signature, optimizer
        self.norm_momentum = {k: float(v) for k, v in norm_momentum.items()}
        self._initial = {k: np.array(v, dtype=np.float32) for k, v in initial.items() if k.startswith(("mask/", "buffer/"))}
        self.masks: dict[str, np.ndarray] = {}
        self.buffers: dict[str, np.ndarray] = {}
        self._reset_common()

    def _reset_common(self) -> None:
        self.masks = {n: self._initial["mask/" + n].copy() for n in self.signature.mask_names}
        self.buffers = {n: self._initial["buffer/" + n].copy() for n in self.signature.buffer_names}

    # -- what a runtime implements -------------------------------------------------------------
    @abstractmethod
    def _forward_backward(self, ordered: list[np.ndarray]) -> list[np.ndarray]:
        """Forward + backward on the ordered inputs; return the user outputs. No parameter changes."""

    @abstractmethod
    def raw_grads(self, names: list[str]) -> dict[str, np.ndarray]:
        """The raw gradients of the last ``forward_backward`` (valid until the next one)."""

    @abstractmethod
    def _apply_update(self, lr: float, grad_masks: dict[str, np.ndarray] | None) -> None:
        """One optimizer step on the last gradients, each masked layer's multiplied by its grad mask."""

    @abstractmethod
    def params(self, names: list[str] | None = None) -> dict[str, np.ndarray]:
        """Current trainable parameters by model name (copies); ``names`` = only those."""

    @abstractmethod
    def set_params(self, values: dict[str, np.ndarray]) -> None: ...

    @abstractmethod
    def _eval_chunk(self, x: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def optimizer_arrays(self) -> tuple[dict[str, np.ndarray], int]:
        """``opt.*`` checkpoint arrays and the optimizer's step count."""

    @abstractmethod
    def load_optimizer_arrays(self, arrays: dict[str, np.ndarray], step: int) -> None: ...

    @abstractmethod
    def _clear_optimizer_state_where(self, where: dict[str, np.ndarray]) -> None:
        """Zero the optimizer state (momentum, moments) of the marked entries."""

    @abstractmethod
    def _reset_runtime(self) -> None:
        """Parameters and optimizer state back to the program's initial values."""

    def save_runtime_state(self, folder: Path) -> None:
        """Runtime state the arrays cannot carry (ORT's AdamW moments); nothing by default."""

    def load_runtime_state(self, folder: Path) -> None:
        """Inverse of ``save_runtime_state``."""

    # -- the engine's API ------------------------------------------------------------------------
    def forward_backward(self, inputs: dict[str, np.ndarray]) -> StepOut:
        """``inputs``: x, y, logit_mask, ce_weight, target_logits, mse_weight (mask inputs come from ``masks``)."""
        full = dict(inputs)
        for name in self.signature.mask_names:
            full[self.signature.mask_input_name(name)] = self.masks[name]
        outs = self._forward_backward(self.signature.check_inputs(full))
        loss = np.float32(np.asarray(outs[0], dtype=np.float32).reshape(()))
        return StepOut(loss, np.asarray(outs[1], dtype=np.float32), [np.asarray(s, dtype=np.float32) for s in outs[2:]])

    def train_step(self, inputs: dict[str, np.ndarray], lr: float,
                   grad_masks: dict[str, np.ndarray] | None = None) -> StepOut:
        """One whole program step (4.4, 4.7, 4.8) and nothing of the engine's logic: for parity tests and benches."""
        out = self.forward_backward(inputs)
        self.apply_update(lr, grad_masks)
        self.update_norm_stats(out.stats)
        return out

    def apply_update(self, lr: float, grad_masks: dict[str, np.ndarray] | None = None) -> None:
        self._apply_update(lr, grad_masks)

    def update_norm_stats(self, stats: list[np.ndarray]) -> None:
        """PyTorch's BatchNorm update in float32: r = (1 - m) r + m * batch_stat (unbiased variance)."""
        for i, layer in enumerate(self.signature.norm_stats):
            mom = np.float32(self.norm_momentum.get(layer, 0.1))
            for j, key in enumerate(("running_mean", "running_var")):
                name = f"{layer}.{key}"
                self.buffers[name] = (np.float32(1) - mom) * self.buffers[name] + mom * np.asarray(stats[2 * i + j], np.float32)

    def set_masks(self, masks: dict[str, np.ndarray], reset: dict[str, np.ndarray] | None = None) -> None:
        """New weight masks (TDM). The weights and optimizer state where ``reset`` is true (default: outside
        the new masks) become exactly 0, so masked weights stay 0 and grown ones start at 0."""
        unknown = sorted(set(masks) - set(self.masks))
        if unknown:
            raise KeyError(f"no mask input for {unknown}; masked parameters are {sorted(self.masks)}")
        for name, m in masks.items():
            m = np.asarray(m, dtype=np.float32)
            if m.shape != self.masks[name].shape:
                raise ValueError(f"mask {name!r}: shape {m.shape}, expected {self.masks[name].shape}")
            self.masks[name] = m.copy()
        where = {n: (self.masks[n] == 0) if reset is None else np.asarray(reset[n], bool) for n in masks}
        current = self.params()
        self.set_params({n: np.where(where[n], np.float32(0), current[n]).astype(np.float32) for n in masks})
        self._clear_optimizer_state_where(where)

    def eval_logits(self, x: np.ndarray) -> np.ndarray:
        """Logits for any number of samples: chunks of the program's batch, the last one zero-padded."""
        b = self.signature.batch_size
        x = np.asarray(x, dtype=np.float32)
        out = []
        for start in range(0, len(x), b):
            chunk = x[start:start + b]
            n = len(chunk)
            if n < b:
                chunk = np.concatenate([chunk, np.zeros((b - n, *chunk.shape[1:]), np.float32)])
            out.append(np.asarray(self._eval_chunk(chunk), dtype=np.float32)[:n])
        return np.concatenate(out) if out else np.zeros((0, self.signature.num_classes), np.float32)

    def state_arrays(self) -> tuple[dict[str, np.ndarray], int]:
        """Checkpoint arrays (``param.``, ``buffer.``, ``mask.``, ``opt.``) and the optimizer step count."""
        arrays = {f"param.{k}": v for k, v in self.params().items()}
        arrays.update({f"buffer.{k}": v.copy() for k, v in self.buffers.items()})
        arrays.update({f"mask.{k}": v.copy() for k, v in self.masks.items()})
        opt, step = self.optimizer_arrays()
        arrays.update(opt)
        return arrays, step

    def load_state_arrays(self, arrays: dict[str, np.ndarray], opt_step: int) -> None:
        sig = self.signature
        missing = [f"{p}.{n}" for p, names in (("param", sig.parameter_names), ("buffer", sig.buffer_names),
                                               ("mask", sig.mask_names)) for n in names if f"{p}.{n}" not in arrays]
        if missing:
            raise KeyError(f"checkpoint lacks {missing[:4]}{'...' if len(missing) > 4 else ''}")
        self.set_params({n: arrays[f"param.{n}"] for n in sig.parameter_names})
        self.buffers = {n: np.array(arrays[f"buffer.{n}"], dtype=np.float32) for n in sig.buffer_names}
        self.masks = {n: np.array(arrays[f"mask.{n}"], dtype=np.float32) for n in sig.mask_names}
        self.load_optimizer_arrays({k: v for k, v in arrays.items() if k.startswith("opt.")}, opt_step)

    def reset(self) -> None:
        """Back to the state a fresh load gives, without loading the program again (the persistent runner)."""
        self._reset_common()
        self._reset_runtime()

    # -- shared details ------------------------------------------------------------------------
    def _dummy_train_inputs(self, x: np.ndarray) -> dict[str, np.ndarray]:
        b, c = self.signature.batch_size, self.signature.num_classes
        zeros = lambda *s: np.zeros(s, np.float32)  # noqa: E731
        return {"x": x, "y": np.zeros(b, np.int64), "logit_mask": np.ones((b, c), np.float32), "ce_weight": zeros(b),
                "target_logits": zeros(b, c), "mse_weight": zeros(b)}
