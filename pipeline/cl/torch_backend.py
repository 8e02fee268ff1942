"""The host's torch-eager backend: the engine's backend interface on the export's own wrapper, in eager mode.

It builds the model exactly as an export does (``prepare_model``: same initial weights, same masked
and pruned layers), trains it through the same replay-loss ``TrainingWrapper`` (explicit BatchNorm,
whose running statistics the engine keeps from the program's batch statistics, as on the device)
and applies the same float32 update: ``NumpyOptimizer`` on ``.numpy()`` views of the torch
parameters (``ViewBackend``, shared with the ExecuTorch backend). Evaluation runs the export's
``EvalWrapper`` (weights, running stats and masks as inputs). So the host trainer and a device
runner differ only in the kernels' last float bits.
"""
from __future__ import annotations

import copy

import numpy as np
import torch

from android_harness.device.backends.base import OptimizerConfig
from android_harness.device.backends.view_backend import ViewBackend
from pipeline.export.request import ExportRequest, prepare_model
from pipeline.export.wrapper import EvalWrapper, TrainingWrapper, build_signature, eval_buffer_names


class TorchBackend(ViewBackend):
    runtime = "torch"

    def __init__(self, req: ExportRequest) -> None:
        prepared = prepare_model(req)
        model = prepared.model
        sig = build_signature(model, tuple(req.input_shape), req.num_classes, req.batch_size, list(prepared.masks))
        buffers = dict(model.named_buffers())
        initial = {**{"mask/" + n: m for n, m in prepared.masks.items()},
                   **{"buffer/" + n: buffers[n].detach().numpy().copy() for n in sig.buffer_names}}
        norms = {n: float(m.momentum) for n, m in model.named_modules() if n in sig.norm_stats}
        opt = OptimizerConfig(req.optimizer, req.momentum, req.weight_decay)
        super().__init__(sig, initial, norms, opt)
        self._eval_model = EvalWrapper(copy.deepcopy(model).eval(), [n for n, _ in model.named_parameters()],
                                       eval_buffer_names(model), list(sig.mask_names))
        self._wrapper = TrainingWrapper(model.train(), list(sig.mask_names), explicit_batchnorm=True)
        self._params = dict(self._wrapper.model.named_parameters())
        self._bind_views({n: p.detach().numpy() for n, p in self._params.items()})

    def _forward_backward(self, ordered: list[np.ndarray]) -> list[np.ndarray]:
        for p in self._params.values():
            p.grad = None
        outs = self._wrapper(*[torch.from_numpy(np.ascontiguousarray(a)) for a in ordered])
        outs[0].backward()
        return [t.detach().numpy() for t in outs]

    def _last_grads(self) -> dict[str, np.ndarray]:
        return {n: p.grad.numpy() for n, p in self._params.items()}

    @torch.no_grad()
    def _eval_chunk(self, x: np.ndarray) -> np.ndarray:
        tensors = [torch.from_numpy(self._views[n]) for n in self._eval_model.param_names]
        tensors += [torch.from_numpy(self.buffers[n]) for n in self._eval_model.buffer_names]
        tensors += [torch.from_numpy(self.masks[n]) for n in self._eval_model.mask_names]
        return self._eval_model(torch.from_numpy(np.ascontiguousarray(x)), *tensors).numpy()
