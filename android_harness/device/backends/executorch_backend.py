"""ExecuTorch backend: the joint ``training.pte`` via ``executorch.extension.training``.

Parameters returned by ``forward_backward`` alias the program's weights (not cloned), so the
numpy optimizer updates them in place through ``.numpy()`` views. The loaded ``.pte`` bytes are
kept referenced for the module's lifetime: the binding does not copy them.
The binding takes torch tensors as inputs, so inputs go through ``torch.from_numpy`` — the torch
that the ExecuTorch Python binding itself depends on; nothing else of torch is used here.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer
from executorch.extension.training import _load_for_executorch_for_training_from_buffer
from torch import from_numpy  # the binding's own input type (see module docstring)

from android_harness.device.backends.base import TrainingBackend
from android_harness.device.backends.manifest import file_by_role
from android_harness.device.backends.numpy_optim import NumpyOptimizer
from android_harness.device.backends.signature import MODEL_PREFIX, SignatureMismatch

METHOD = "forward"


class ExecuTorchBackend(TrainingBackend):
    runtime = "executorch"

    def __init__(self, folder: Path, manifest: dict[str, Any], initial: dict[str, np.ndarray]) -> None:
        super().__init__(folder, manifest, initial)
        self._train_bytes = (folder / file_by_role(manifest, "training")).read_bytes()
        self._eval_bytes = (folder / file_by_role(manifest, "eval")).read_bytes()
        self._module = _load_for_executorch_for_training_from_buffer(self._train_bytes)
        self._eval = _load_for_executorch_from_buffer(self._eval_bytes)
        meta = self._module.model.method_meta(METHOD)
        self.optimizer = _optimizer(manifest)
        self._grads: dict[str, np.ndarray] = {}
        self._views = self._bind_parameters()
        self._initial_params = self.params()
        self.signature.check_program(input_count=meta.num_inputs(), output_count=meta.num_outputs(),
                                     parameter_names=list(self._views))
        eval_meta = self._eval.method_meta(METHOD)
        if eval_meta.num_inputs() != len(self.signature.eval_inputs):
            raise SignatureMismatch(f"eval program takes {eval_meta.num_inputs()} inputs, signature declares "
                                    f"{len(self.signature.eval_inputs)}")

    def _bind_parameters(self) -> dict[str, np.ndarray]:
        """Parameters are reachable only after one forward_backward: run one with all-zero loss weights."""
        x = np.zeros(self.signature.inputs[0].shape, np.float32)
        dummy = self._dummy_train_inputs(x)
        for name in self.signature.mask_names:
            dummy[self.signature.mask_input_name(name)] = self.masks[name]
        self._module.forward_backward(METHOD, [from_numpy(np.ascontiguousarray(a)) for a in self.signature.check_inputs(dummy)])
        return {k[len(MODEL_PREFIX):] if k.startswith(MODEL_PREFIX) else k: t.numpy()
                for k, t in self._module.named_parameters().items()}

    def _run_step(self, ordered, lr, grad_masks):
        outs = self._module.forward_backward(METHOD, [from_numpy(np.ascontiguousarray(a)) for a in ordered])
        grads = {k[len(MODEL_PREFIX):] if k.startswith(MODEL_PREFIX) else k: t.numpy()
                 for k, t in self._module.named_gradients().items()}
        for name, gm in (grad_masks or {}).items():
            grads[name] = grads[name] * np.asarray(gm, dtype=np.float32)
        self._grads = grads
        self.optimizer.step(self._views, grads, lr)
        return [t.numpy() for t in outs]

    def set_masks(self, masks: dict[str, np.ndarray], zero_masked: bool = True) -> None:
        super().set_masks(masks, zero_masked)
        if zero_masked:
            self.optimizer.clear_state_where({n: self.masks[n] == 0 for n in masks})

    def grads(self) -> dict[str, np.ndarray]:
        return {k: v.copy() for k, v in self._grads.items()}

    def params(self) -> dict[str, np.ndarray]:
        return {k: v.copy() for k, v in self._views.items()}

    def set_params(self, values: dict[str, np.ndarray]) -> None:
        for name, value in values.items():
            if name not in self._views:
                raise KeyError(f"no parameter {name!r}")
            np.copyto(self._views[name], np.asarray(value, dtype=np.float32))

    def _reset_runtime(self) -> None:
        self.set_params(self._initial_params)
        self.optimizer = _optimizer(self.manifest)
        self._grads = {}

    def _eval_chunk(self, x: np.ndarray) -> np.ndarray:
        values = {"x": x, **self._views, **self.buffers}
        values.update({self.signature.mask_input_name(n): m for n, m in self.masks.items()})
        args = [from_numpy(np.ascontiguousarray(values[t.name], dtype=np.float32)) for t in self.signature.eval_inputs]
        return self._eval.run_method(METHOD, args)[0].numpy()

    def _save_runtime(self, folder: Path) -> None:
        np.savez(folder / "params.npz", **{"param/" + k: v for k, v in self._views.items()}, **self.optimizer.state_arrays())

    def _load_runtime(self, folder: Path) -> None:
        with np.load(folder / "params.npz") as z:
            arrays = dict(z.items())
        self.set_params({k[6:]: v for k, v in arrays.items() if k.startswith("param/")})
        self.optimizer.load_state_arrays(arrays)
        self._grads = {}


def _optimizer(manifest: dict[str, Any]) -> NumpyOptimizer:
    opt = manifest["optimizer"]
    return NumpyOptimizer(opt["name"], opt.get("momentum", 0.0), opt.get("weight_decay", 0.0),
                          tuple(opt.get("betas", (0.9, 0.999))), opt.get("eps", 1e-8))
