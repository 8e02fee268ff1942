"""ONNX Runtime Training backend: training / eval / optimizer models + checkpoint via
``onnxruntime.training.api``.

``Module(...)`` runs forward+backward and accumulates gradients into the checkpoint state (reset
lazily each step); ``Optimizer.step`` applies ORT's own SGD or AdamW. Gradients are readable
(``Parameter.grad``, raw) but not writable, so DGM is applied after the step: the entries whose
gradient is masked are restored to their pre-step values, which for plain SGD — the only optimizer
DGM is defined for (docs/semantics.md 4.7) — is exactly "gradient 0". ORT's AdamW keeps its moments
inside the CheckpointState, out of Python's reach: they are saved as ORT's own checkpoint file
(``save_runtime_state``), and masked weights are re-zeroed after every step once masks changed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from android_harness.device.backends.base import OptimizerConfig, TrainingBackend
from android_harness.device.backends.manifest import file_by_role
from android_harness.device.backends.ort_runtime import load_training_api
from android_harness.device.backends.signature import MODEL_PREFIX, SignatureMismatch, TrainingSignature

_api = load_training_api()  # torch-free on the device (see ort_runtime)
CheckpointState, Module, Optimizer = _api.CheckpointState, _api.Module, _api.Optimizer
ORT_STATE = "ort_checkpoint"


class OrtBackend(TrainingBackend):
    runtime = "ort"

    def __init__(self, folder: Path, manifest: dict[str, Any], initial: dict[str, np.ndarray]) -> None:
        super().__init__(TrainingSignature.from_json(manifest["signature"]), initial, manifest.get("norm_momentum", {}),
                         OptimizerConfig.from_manifest(manifest))
        self._paths = {r: str(folder / file_by_role(manifest, r)) for r in ("training", "eval", "optimizer", "checkpoint")}
        self._stateless = self.optimizer_config.plain_sgd  # ORT's SGD block keeps no state
        self._steps = 0
        self._zero_masked = False
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

    def _forward_backward(self, ordered: list[np.ndarray]) -> list[np.ndarray]:
        self._module.train()
        self._module.lazy_reset_grad()
        outs = self._module(*[np.ascontiguousarray(a) for a in ordered])
        return list(outs)[:len(self.signature.outputs)]

    def raw_grads(self, names: list[str]) -> dict[str, np.ndarray]:
        return {n: np.array(self._p(n).grad, dtype=np.float32) for n in names}

    def _apply_update(self, lr: float, grad_masks: dict[str, np.ndarray] | None) -> None:
        before = {n: self._p(n).data.copy() for n in (grad_masks or {})}
        self._optimizer.set_learning_rate(lr)
        self._optimizer.step()
        self._steps += 1
        for name, gm in (grad_masks or {}).items():
            self._p(name).data = np.where(gm == 0, before[name], self._p(name).data).astype(np.float32)
        if self._zero_masked:
            for name, m in self.masks.items():
                self._p(name).data = (self._p(name).data * m).astype(np.float32)

    def params(self, names: list[str] | None = None) -> dict[str, np.ndarray]:
        return {n: np.array(self._p(n).data) for n in (self.signature.parameter_names if names is None else names)}

    def set_params(self, values: dict[str, np.ndarray]) -> None:
        for name, value in values.items():
            if MODEL_PREFIX + name not in self._state.parameters:
                raise KeyError(f"no parameter {name!r}")
            self._p(name).data = np.ascontiguousarray(value, dtype=np.float32)

    def optimizer_arrays(self) -> tuple[dict[str, np.ndarray], int]:
        return {}, self._steps          # SGD keeps no state; AdamW's is in save_runtime_state

    def load_optimizer_arrays(self, arrays: dict[str, np.ndarray], step: int) -> None:
        self._steps = int(step)

    def _clear_optimizer_state_where(self, where: dict[str, np.ndarray]) -> None:
        """ORT's AdamW moments are unreachable: masked weights are re-zeroed after every step instead."""
        if not self._stateless:
            self._zero_masked = True

    def save_runtime_state(self, folder: Path) -> None:
        if self._stateless:
            return
        self._sync_buffers()
        CheckpointState.save_checkpoint(self._state, str(folder / ORT_STATE), include_optimizer_state=True)

    def load_runtime_state(self, folder: Path) -> None:
        if self._stateless:
            return
        params, masks = self.params(), {k: v.copy() for k, v in self.masks.items()}
        self._open(str(folder / ORT_STATE))
        self.set_params(params)
        self.masks = masks
        self._zero_masked = True

    def _reset_runtime(self) -> None:
        self._steps, self._zero_masked = 0, False
        if not self._stateless:
            self._open(self._paths["checkpoint"])
            return
        loaded = CheckpointState.load_checkpoint(self._paths["checkpoint"])
        for name, param in loaded.parameters:
            self._state.parameters[name].data = np.ascontiguousarray(param.data, dtype=np.float32)

    def _sync_buffers(self) -> None:
        for name, value in self.buffers.items():
            self._p(name).data = np.ascontiguousarray(value, dtype=np.float32)

    def _eval_chunk(self, x: np.ndarray) -> np.ndarray:
        self._sync_buffers()
        inputs = self._dummy_train_inputs(x)
        inputs.update({self.signature.mask_input_name(n): m for n, m in self.masks.items()})
        self._module.eval()
        outs = self._module(*[np.ascontiguousarray(a) for a in self.signature.check_inputs(inputs)])
        self._module.train()
        return np.asarray(outs[1])


def _no_spin():
    """Session options whose intra-op threads sleep instead of spinning after each step: the runner's
    own Python between steps (swap reads) otherwise competes with idle-spinning threads."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options
