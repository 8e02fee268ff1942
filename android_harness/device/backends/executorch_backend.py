"""ExecuTorch backend: the joint ``training.pte`` via ``executorch.extension.training``.

``forward_backward`` fills the program's gradient outputs (read raw through ``named_gradients``);
the numpy optimizer then updates the parameters in place through ``.numpy()`` views of the
program's weights (``named_parameters`` aliases them, it does not clone; ``ViewBackend``). The loaded ``.pte``
bytes are kept referenced for the module's lifetime: the binding does not copy them. The binding
takes torch tensors as inputs, so inputs go through ``torch.from_numpy`` — the torch that the
ExecuTorch Python binding itself depends on; nothing else of torch is used here.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer
from executorch.extension.training import _load_for_executorch_for_training_from_buffer
from torch import from_numpy  # the binding's own input type (see module docstring)

from android_harness.device.backends.base import OptimizerConfig
from android_harness.device.backends.manifest import file_by_role
from android_harness.device.backends.signature import MODEL_PREFIX, SignatureMismatch, TrainingSignature
from android_harness.device.backends.view_backend import ViewBackend

METHOD = "forward"


def _strip(name: str) -> str:
    return name[len(MODEL_PREFIX):] if name.startswith(MODEL_PREFIX) else name


class ExecuTorchBackend(ViewBackend):
    runtime = "executorch"

    def __init__(self, folder: Path, manifest: dict[str, Any], initial: dict[str, np.ndarray]) -> None:
        super().__init__(TrainingSignature.from_json(manifest["signature"]), initial, manifest.get("norm_momentum", {}),
                         OptimizerConfig.from_manifest(manifest))
        self._train_bytes = (folder / file_by_role(manifest, "training")).read_bytes()
        self._eval_bytes = (folder / file_by_role(manifest, "eval")).read_bytes()
        self._module = _load_for_executorch_for_training_from_buffer(self._train_bytes)
        self._eval = _load_for_executorch_from_buffer(self._eval_bytes)
        meta = self._module.model.method_meta(METHOD)
        self._grads: dict[str, np.ndarray] = {}
        self._bind_views(self._bind_parameters())
        self.signature.check_program(input_count=meta.num_inputs(), output_count=meta.num_outputs(),
                                     parameter_names=list(self._views))
        eval_meta = self._eval.method_meta(METHOD)
        if eval_meta.num_inputs() != len(self.signature.eval_inputs):
            raise SignatureMismatch(f"eval program takes {eval_meta.num_inputs()} inputs, signature declares "
                                    f"{len(self.signature.eval_inputs)}")

    def _bind_parameters(self) -> dict[str, np.ndarray]:
        """Parameters are reachable only after one forward_backward: run one with all-zero loss weights."""
        dummy = self._dummy_train_inputs(np.zeros(self.signature.inputs[0].shape, np.float32))
        for name in self.signature.mask_names:
            dummy[self.signature.mask_input_name(name)] = self.masks[name]
        self._module.forward_backward(METHOD, [from_numpy(np.ascontiguousarray(a)) for a in self.signature.check_inputs(dummy)])
        return {_strip(k): t.numpy() for k, t in self._module.named_parameters().items()}

    def _forward_backward(self, ordered: list[np.ndarray]) -> list[np.ndarray]:
        outs = self._module.forward_backward(METHOD, [from_numpy(np.ascontiguousarray(a)) for a in ordered])
        self._grads = {_strip(k): t.numpy() for k, t in self._module.named_gradients().items()}
        return [t.numpy() for t in outs[:len(self.signature.outputs)]]

    def _last_grads(self) -> dict[str, np.ndarray]:
        return self._grads

    def _reset_runtime(self) -> None:
        super()._reset_runtime()
        self._grads = {}

    def _eval_chunk(self, x: np.ndarray) -> np.ndarray:
        values = {"x": x, **self._views, **self.buffers}
        values.update({self.signature.mask_input_name(n): m for n, m in self.masks.items()})
        args = [from_numpy(np.ascontiguousarray(values[t.name], dtype=np.float32)) for t in self.signature.eval_inputs]
        return self._eval.run_method(METHOD, args)[0].numpy()
