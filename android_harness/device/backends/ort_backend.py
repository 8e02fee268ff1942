"""ONNX Runtime Training backend: training / eval / optimizer models + checkpoint via
``onnxruntime.training.api``.

``Module(...)`` runs forward+backward and accumulates gradients into the checkpoint state
(reset lazily each step); ``Optimizer.step`` applies SGD or AdamW from the optimizer model.
Gradients are readable (``Parameter.grad``) but not writable, so DGM is applied after the step:
parameters whose gradient is masked are restored to their pre-step values. For SGD without
momentum or weight decay this is exactly "gradient 0"; for AdamW the moment estimates still see
the unmasked gradient (those weights do not move this step, but their moments do).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.backends.base import TrainingBackend
from android_harness.device.backends.manifest import file_by_role
from android_harness.device.backends.ort_runtime import load_training_api
from android_harness.device.backends.signature import MODEL_PREFIX, SignatureMismatch

_api = load_training_api()  # torch-free on the device (see ort_runtime)
CheckpointState, Module, Optimizer = _api.CheckpointState, _api.Module, _api.Optimizer


class OrtBackend(TrainingBackend):
    runtime = "ort"

    def __init__(self, folder: Path, manifest: dict[str, Any], initial: dict[str, np.ndarray]) -> None:
        super().__init__(folder, manifest, initial)
        self._paths = {r: str(folder / file_by_role(manifest, r)) for r in ("training", "eval", "optimizer", "checkpoint")}
        self._stateless_optimizer = manifest.get("optimizer", {}).get("name") == "sgd"  # ORT's SGD block keeps no state
        self._open(self._paths["checkpoint"])
        inputs = self._module.input_names()
        outputs = self._module.output_names()
        trainable = {n[len(MODEL_PREFIX):] for n, p in self._state.parameters if p.requires_grad}
        self.signature.check_program(input_count=len(inputs), output_count=len(outputs))
        if trainable != set(self.signature.parameter_names):
            raise SignatureMismatch(f"checkpoint trains {sorted(trainable)}, signature declares {sorted(self.signature.parameter_names)}")
        if inputs != self.signature.input_names:
            raise SignatureMismatch(f"ORT training model inputs {inputs} differ from the signature {self.signature.input_names}")

    def _open(self, checkpoint: str) -> None:
        self._state = CheckpointState.load_checkpoint(checkpoint)
        self._module = Module(self._paths["training"], self._state, self._paths["eval"], session_options=_no_spin())
        self._optimizer = Optimizer(self._paths["optimizer"], self._module)

    def _p(self, name: str):
        return self._state.parameters[MODEL_PREFIX + name]

    def _run_step(self, ordered, lr, grad_masks):
        self._module.train()
        self._module.lazy_reset_grad()
        before = {n: self._p(n).data.copy() for n in (grad_masks or {})}
        outs = self._module(*[np.ascontiguousarray(a) for a in ordered])
        self._grads_cleared = False
        self._grad_masks = {n: np.asarray(m, dtype=np.float32) for n, m in (grad_masks or {}).items()}
        self._optimizer.set_learning_rate(lr)
        self._optimizer.step()
        for name, gm in self._grad_masks.items():
            now = self._p(name).data
            self._p(name).data = np.where(gm == 0, before[name], now).astype(np.float32)
        return list(outs)

    def grads(self) -> dict[str, np.ndarray]:
        masks = getattr(self, "_grad_masks", {})
        out = {}
        for name in self.signature.parameter_names:
            g = np.array(self._p(name).grad, dtype=np.float32)
            if getattr(self, "_grads_cleared", False):
                g = np.zeros_like(g)
            out[name] = g * masks[name] if name in masks else g
        return out

    def params(self) -> dict[str, np.ndarray]:
        return {n: np.array(self._p(n).data) for n in self.signature.parameter_names}

    def set_params(self, values: dict[str, np.ndarray]) -> None:
        for name, value in values.items():
            if MODEL_PREFIX + name not in self._state.parameters:
                raise KeyError(f"no parameter {name!r}")
            self._p(name).data = np.ascontiguousarray(value, dtype=np.float32)

    def _reset_runtime(self) -> None:
        self._load_state(self._paths["checkpoint"])

    def _load_state(self, checkpoint: str) -> None:
        """All parameters (and the optimizer state) from ``checkpoint``. With SGD, whose ORT optimizer keeps no
        state, the values are copied into the open modules; otherwise (AdamW's moments live in the
        CheckpointState, not reachable from Python) the modules are rebuilt on the loaded state."""
        self._grad_masks = {}
        self._grads_cleared = True  # a fresh module's gradients are zero; kept ones are the last session's
        if not self._stateless_optimizer:
            self._open(checkpoint)
            return
        loaded = CheckpointState.load_checkpoint(checkpoint)
        for name, param in loaded.parameters:
            self._state.parameters[name].data = np.ascontiguousarray(param.data, dtype=np.float32)

    def _eval_chunk(self, x: np.ndarray) -> np.ndarray:
        for name, value in self.buffers.items():
            self._p(name).data = np.ascontiguousarray(value, dtype=np.float32)
        inputs = self._dummy_train_inputs(x)
        inputs.update({self.signature.mask_input_name(n): m for n, m in self.masks.items()})
        self._module.eval()
        outs = self._module(*[np.ascontiguousarray(a) for a in self.signature.check_inputs(inputs)])
        self._module.train()
        return np.asarray(outs[1])

    def _save_runtime(self, folder: Path) -> None:
        for name, value in self.buffers.items():
            self._p(name).data = np.ascontiguousarray(value, dtype=np.float32)
        CheckpointState.save_checkpoint(self._state, str(folder / "checkpoint"), include_optimizer_state=True)

    def _load_runtime(self, folder: Path) -> None:
        self._load_state(str(folder / "checkpoint"))


def _no_spin():
    """Session options whose intra-op threads sleep instead of spinning after each step: the runner's
    own Python between steps (replay draws, swap worker) otherwise competes with idle-spinning threads."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options
