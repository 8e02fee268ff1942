"""The interface every device-side training backend offers the runner, and the logic they share.

A backend owns one exported training program: ``train_step`` runs forward+backward and the
optimizer step, ``eval_logits`` runs the eval program with the current weights. Weight masks are
inputs of every step (TDM may change them between steps); ``train_step(grad_masks=...)`` is DGM.
BatchNorm running statistics are kept here, from the batch statistics the program outputs, with
PyTorch's update rule, and passed to the eval program.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.backends.signature import TrainingSignature


@dataclass
class StepOut:
    loss: float
    logits: np.ndarray  # [B, C]


class TrainingBackend(ABC):
    """Common state: signature, current masks and running statistics, the manifest."""

    runtime = ""

    def __init__(self, folder: Path, manifest: dict[str, Any], initial: dict[str, np.ndarray]) -> None:
        self.folder, self.manifest = folder, manifest
        self.signature = TrainingSignature.from_json(manifest["signature"])
        self.masks = {n: np.array(initial["mask/" + n], dtype=np.float32) for n in self.signature.mask_names}
        self.buffers = {n: np.array(initial["buffer/" + n], dtype=np.float32) for n in self.signature.buffer_names}
        self.norm_momentum: dict[str, float] = manifest.get("norm_momentum", {})
        self._initial = {k: v for k, v in initial.items() if k.startswith(("mask/", "buffer/"))}
        self.steps = 0
        self._masks_changed = False

    # -- what a runtime implements -------------------------------------------------------------
    @abstractmethod
    def _run_step(self, ordered: list[np.ndarray], lr: float, grad_masks: dict[str, np.ndarray] | None) -> list[np.ndarray]:
        """Forward+backward+optimizer step; return the user outputs (loss, logits, norm stats)."""

    @abstractmethod
    def params(self) -> dict[str, np.ndarray]:
        """Current trainable parameters by model name (copies)."""

    @abstractmethod
    def set_params(self, values: dict[str, np.ndarray]) -> None: ...

    @abstractmethod
    def _eval_chunk(self, x: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _save_runtime(self, folder: Path) -> None: ...

    @abstractmethod
    def _load_runtime(self, folder: Path) -> None: ...

    @abstractmethod
    def _reset_runtime(self) -> None:
        """Parameters and optimizer state back to the program's initial values."""

    @abstractmethod
    def grads(self) -> dict[str, np.ndarray]:
        """Gradients of the last step by parameter name (after DGM masking where applied)."""

    # -- the runner's API ----------------------------------------------------------------------
    def train_step(self, inputs: dict[str, np.ndarray], lr: float,
                   grad_masks: dict[str, np.ndarray] | None = None) -> StepOut:
        """One training step. ``inputs`` holds x, y, logit_mask, ce_weight, target_logits, mse_weight
        (mask inputs are filled from ``self.masks``); ``grad_masks`` (0/1 by parameter name) is DGM."""
        full = dict(inputs)
        for name in self.signature.mask_names:
            full.setdefault(self.signature.mask_input_name(name), self.masks[name])
        ordered = self.signature.check_inputs(full)
        outs = self._run_step(ordered, lr, grad_masks)
        if self._masks_changed:
            self._reapply_masks()
        self._update_running_stats(outs[2:])
        self.steps += 1
        return StepOut(float(np.asarray(outs[0]).reshape(())), np.asarray(outs[1]))

    def reset(self) -> None:
        """Back to the state a fresh ``load_backend`` gives (parameters, masks, running statistics, optimizer),
        without loading the program again: the persistent runner reuses one backend across sessions."""
        self.masks = {n: np.array(self._initial["mask/" + n], dtype=np.float32) for n in self.signature.mask_names}
        self.buffers = {n: np.array(self._initial["buffer/" + n], dtype=np.float32) for n in self.signature.buffer_names}
        self.steps = 0
        self._masks_changed = False
        self._reset_runtime()

    def set_masks(self, masks: dict[str, np.ndarray], zero_masked: bool = True) -> None:
        """Replace weight masks (TDM); masked weights are zeroed so they stay exactly 0.

        Masked weights get zero gradient, but an optimizer with state (AdamW moments, momentum)
        would keep moving weights that were live before; so once masks changed, every step ends by
        re-applying them (and the ExecuTorch backend also clears their optimizer state).
        """
        unknown = sorted(set(masks) - set(self.masks))
        if unknown:
            raise KeyError(f"no mask input for {unknown}; masked parameters are {sorted(self.masks)}")
        for name, m in masks.items():
            m = np.asarray(m, dtype=np.float32)
            if m.shape != self.masks[name].shape:
                raise ValueError(f"mask {name!r}: shape {m.shape}, expected {self.masks[name].shape}")
            self.masks[name] = m.copy()
        if zero_masked:
            self._masks_changed = True
            self._reapply_masks()

    def _reapply_masks(self) -> None:
        current = self.params()
        self.set_params({n: current[n] * m for n, m in self.masks.items()})

    def eval_logits(self, x: np.ndarray) -> np.ndarray:
        """Logits for any number of samples (the program's fixed batch is padded and chunked)."""
        b = self.signature.batch_size
        x = np.asarray(x, dtype=np.float32)
        out = []
        for start in range(0, len(x), b):
            chunk = x[start:start + b]
            n = len(chunk)
            if n < b:
                chunk = np.concatenate([chunk, np.zeros((b - n, *chunk.shape[1:]), np.float32)])
            out.append(self._eval_chunk(chunk)[:n])
        return np.concatenate(out) if out else np.zeros((0, self.signature.num_classes), np.float32)

    def save(self, folder: str | Path) -> None:
        """Parameters, masks, running stats and optimizer state, written atomically into ``folder``."""
        folder = Path(folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
        try:
            np.savez(tmp / "state.npz", masks_changed=np.array(self._masks_changed),
                     **{"mask/" + k: v for k, v in self.masks.items()},
                     **{"buffer/" + k: v for k, v in self.buffers.items()})
            self._save_runtime(tmp)
            (tmp / "backend.json").write_text(json.dumps({"runtime": self.runtime, "steps": self.steps}))
            if folder.exists():
                shutil.rmtree(folder)
            os.replace(tmp, folder)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    def load(self, folder: str | Path) -> None:
        folder = Path(folder)
        meta = json.loads((folder / "backend.json").read_text())
        if meta["runtime"] != self.runtime:
            raise ValueError(f"{folder}: saved by the {meta['runtime']} backend, this is {self.runtime}")
        with np.load(folder / "state.npz") as z:
            self.masks = {n: z["mask/" + n] for n in self.signature.mask_names}
            self._masks_changed = bool(z["masks_changed"]) if "masks_changed" in z else False
            self.buffers = {n: z["buffer/" + n] for n in self.signature.buffer_names}
        self._load_runtime(folder)
        self.steps = int(meta["steps"])

    # -- shared details ------------------------------------------------------------------------
    def _update_running_stats(self, stats: list[np.ndarray]) -> None:
        """PyTorch's BatchNorm update: r = (1 - m) r + m * batch_stat (unbiased variance)."""
        for i, layer in enumerate(self.signature.norm_stats):
            mom = np.float32(self.norm_momentum.get(layer, 0.1))
            for j, key in enumerate(("running_mean", "running_var")):
                name = f"{layer}.{key}"
                stat = np.asarray(stats[2 * i + j], dtype=np.float32)
                self.buffers[name] = (np.float32(1) - mom) * self.buffers[name] + mom * stat

    def _dummy_train_inputs(self, x: np.ndarray) -> dict[str, np.ndarray]:
        b, c = self.signature.batch_size, self.signature.num_classes
        zeros = lambda *s: np.zeros(s, np.float32)  # noqa: E731
        return {"x": x, "y": np.zeros(b, np.int64), "logit_mask": np.ones((b, c), np.float32), "ce_weight": zeros(b),
                "target_logits": zeros(b, c), "mse_weight": zeros(b)}
