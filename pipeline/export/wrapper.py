"""The training wrapper: one fixed-shape program that serves finetune, ER and DER++.

Inputs (in order), for a batch of B rows and C classes:

- ``x`` [B, ...] float32, ``y`` [B] int64
- ``logit_mask`` [B, C] float32, 0/1: 1 = the class takes part in the cross-entropy of that row
  (current-task-logits-only CE sets only the task's classes; 1 everywhere = ordinary CE)
- ``ce_weight`` [B] float32, ``target_logits`` [B, C] float32, ``mse_weight`` [B] float32
- one weight mask per masked parameter (``mask__<name with . -> __>``, the parameter's shape),
  multiplied into the weight in the forward pass: masked weights get exactly zero gradient and
  TDM can change masks on the device between steps.

Loss (output 0)::

    z_i   = logits_i * logit_mask_i + (logit_mask_i - 1) * 1e9
    ce_i  = -log_softmax(z_i)[y_i]
    mse_i = mean_c (logits_ic - target_logits_ic)^2
    loss  = sum_i ce_weight_i * ce_i + mse_weight_i * mse_i

The weights carry the normalisation, so DER++ (mammoth) is: current rows ``ce_weight = 1/n``,
logit-replay rows ``mse_weight = alpha/m``, label-replay rows ``ce_weight = beta/m``; ER is CE rows
over the concatenated batch; rows with both weights 0 pad the fixed B and do not change the loss.
(BatchNorm still sees padded rows in its batch statistics.)

Outputs: ``loss``, ``logits`` (unmasked, for DDR's correctness and DER++'s stored logits), then
per BatchNorm layer the batch mean and unbiased variance of its input (detached) so a device
backend can keep the running statistics the eval program needs.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from pipeline.errors import ExportError
from pipeline.export.signature import TensorSpec, TrainingSignature

MASK_OFF = 1e9
_NORMS = (nn.BatchNorm1d, nn.BatchNorm2d)
_MASKABLE = (nn.Linear, nn.Conv1d, nn.Conv2d)


def _conv1d_as_conv2d(module: nn.Conv1d, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """Conv1d computed as a Conv2d of height 1 (ExecuTorch has no 1-D convolution backward kernel)."""
    if isinstance(module.padding, str) or module.padding_mode != "zeros":
        raise ExportError(f"Conv1d with padding {module.padding!r}/{module.padding_mode!r} cannot be rewritten for "
                          "ExecuTorch training; use integer zero padding", node=type(module).__name__)
    y = F.conv2d(x.unsqueeze(2), w.unsqueeze(2), module.bias, stride=(1, module.stride[0]),
                 padding=(0, module.padding[0]), dilation=(1, module.dilation[0]), groups=module.groups)
    return y.squeeze(2)


class MaskSlots(dict):
    """The masks of the call in progress, read by the patched layers. A dict subclass that
    ``torch.export`` does not take apart as module state: a plain dict attribute is snapshotted and
    put back as a copy after an export, so a second export of the same wrapper (the operator check's
    forward graph) would fill a dict the layers no longer read."""


def patch_layer_forward(module: nn.Module, mask_name: str | None, masks: dict[str, torch.Tensor],
                        conv1d_as_2d: bool = False) -> None:
    """Make ``module`` compute with ``weight * masks[mask_name]`` (parameter names stay unchanged),
    and, with ``conv1d_as_2d``, run a Conv1d as a height-1 Conv2d.

    Patching the instance's forward, rather than ``functional_call``, keeps the model traceable by
    both ``torch.export`` and the TorchScript ONNX exporter.
    """
    if not isinstance(module, _MASKABLE) or (mask_name is not None and not mask_name.endswith(".weight")):
        raise ExportError(f"cannot mask {mask_name!r}: only the weight of Linear/Conv1d/Conv2d layers can be masked "
                          f"(got {type(module).__name__})", node=mask_name)

    def forward(x):
        w = module.weight if mask_name is None else module.weight * masks[mask_name]
        if isinstance(module, nn.Linear):
            return F.linear(x, w, module.bias)
        if conv1d_as_2d and isinstance(module, nn.Conv1d):
            return _conv1d_as_conv2d(module, x, w)
        return module._conv_forward(x, w, module.bias)

    module.forward = forward


def patch_explicit_batchnorm(module: nn.Module) -> None:
    """Training-mode BatchNorm written out in elementary ops, without touching the running stats.

    ExecuTorch's joint graph keeps ``_native_batch_norm_legit_functional``, which is neither Core
    ATen nor a portable kernel (and its decomposition emits prims ops ``to_edge`` rejects); these
    ops differentiate and lower cleanly. The running statistics are the backend's job (see module doc).
    """

    def forward(x):
        dims = [0] + list(range(2, x.dim()))
        shape = [1, -1] + [1] * (x.dim() - 2)
        mean = x.mean(dim=dims, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=dims, keepdim=True)
        y = (x - mean) / torch.sqrt(var + module.eps)
        return y * module.weight.reshape(shape) + module.bias.reshape(shape)

    module.forward = forward


def norm_layers(model: nn.Module) -> list[str]:
    return [n for n, m in model.named_modules() if isinstance(m, _NORMS)]


class TrainingWrapper(nn.Module):
    """``model`` + masks -> (loss, logits, *norm stats). Parameters live under ``model.``."""

    def __init__(self, model: nn.Module, mask_names: list[str], explicit_batchnorm: bool = False,
                 conv1d_as_2d: bool = False) -> None:
        super().__init__()
        self.model = model
        self.mask_names = list(mask_names)
        self.norm_names = norm_layers(model)
        self._captured: dict[str, torch.Tensor] = {}
        self._masks = MaskSlots()
        modules = dict(model.named_modules())
        for name in self.mask_names:
            patch_layer_forward(modules[name.rsplit(".", 1)[0]], name, self._masks, conv1d_as_2d)
        if conv1d_as_2d:
            masked = {n.rsplit(".", 1)[0] for n in self.mask_names}
            for name, module in modules.items():
                if isinstance(module, nn.Conv1d) and name not in masked:
                    patch_layer_forward(module, None, self._masks, True)
        for name in self.norm_names:
            modules[name].register_forward_pre_hook(self._capture(name))
            if explicit_batchnorm:
                patch_explicit_batchnorm(modules[name])

    def _capture(self, name: str):
        def hook(_module, args):
            self._captured[name] = args[0]

        return hook

    def forward(self, x, y, logit_mask, ce_weight, target_logits, mse_weight, *masks):
        self._masks.update(zip(self.mask_names, masks))
        try:
            logits = self.model(x)
        finally:   # the slots hold this call's tensors only: a later export must not find the traced ones
            self._masks.clear()
        z = logits * logit_mask + (logit_mask - 1.0) * MASK_OFF
        onehot = (y.unsqueeze(1) == torch.arange(logits.shape[1], device=y.device).unsqueeze(0)).to(logits.dtype)
        ce = -(F.log_softmax(z, dim=1) * onehot).sum(dim=1)
        mse = ((logits - target_logits) ** 2).mean(dim=1)
        loss = (ce_weight * ce + mse_weight * mse).sum()
        stats = []
        for name in self.norm_names:
            h = self._captured.pop(name).detach()
            dims = [0] + list(range(2, h.dim()))
            stats += [h.mean(dim=dims), h.var(dim=dims, unbiased=True)]
        return (loss, logits.detach(), *stats)


class EvalWrapper(nn.Module):
    """Forward only: ``x``, parameters, running stats and masks as INPUTS -> logits.

    Taking weights as inputs keeps one copy of the weights on the device (the training program's);
    the backend passes its current values.
    """

    def __init__(self, model: nn.Module, param_names: list[str], buffer_names: list[str], mask_names: list[str]) -> None:
        super().__init__()
        self.model = model.eval()
        self.param_names, self.buffer_names, self.mask_names = list(param_names), list(buffer_names), list(mask_names)
        self._masks = MaskSlots()
        modules = dict(model.named_modules())
        for name in self.mask_names:
            patch_layer_forward(modules[name.rsplit(".", 1)[0]], name, self._masks)

    def forward(self, x, *tensors):
        n_p, n_b = len(self.param_names), len(self.buffer_names)
        values = dict(zip(self.param_names, tensors[:n_p]))
        values.update(zip(self.buffer_names, tensors[n_p:n_p + n_b]))
        self._masks.update(zip(self.mask_names, tensors[n_p + n_b:]))
        try:
            return torch.func.functional_call(self.model, values, (x,), strict=False)
        finally:
            self._masks.clear()


def eval_buffer_names(model: nn.Module) -> list[str]:
    """Running statistics the eval program needs (``num_batches_tracked`` does not change the output)."""
    return [n for n, _ in model.named_buffers() if not n.endswith("num_batches_tracked")]


def build_signature(model: nn.Module, input_shape: tuple[int, ...], num_classes: int, batch_size: int,
                    mask_names: list[str]) -> TrainingSignature:
    """The contract of ``TrainingWrapper(model, mask_names)`` at batch ``batch_size``."""
    params = dict(model.named_parameters())
    unknown = [n for n in mask_names if n not in params]
    if unknown:
        raise ExportError(f"mask for unknown parameter(s) {unknown}; parameters are {sorted(params)}")
    b, c = batch_size, num_classes
    sig0 = TrainingSignature((), (), (), ())
    inputs = [
        TensorSpec("x", (b, *input_shape), "float32"), TensorSpec("y", (b,), "int64"),
        TensorSpec("logit_mask", (b, c), "float32"), TensorSpec("ce_weight", (b,), "float32"),
        TensorSpec("target_logits", (b, c), "float32"), TensorSpec("mse_weight", (b,), "float32"),
    ]
    masks = [TensorSpec(sig0.mask_input_name(n), tuple(params[n].shape), "float32") for n in mask_names]
    norms = norm_layers(model)
    outputs = ["loss", "logits"] + [f"{n}.{s}" for n in norms for s in ("mean", "var")]
    buffers = eval_buffer_names(model)
    named_buffers = dict(model.named_buffers())
    eval_inputs = [TensorSpec("x", (b, *input_shape), "float32")]
    eval_inputs += [TensorSpec(n, tuple(p.shape), "float32") for n, p in params.items()]
    eval_inputs += [TensorSpec(n, tuple(named_buffers[n].shape), "float32") for n in buffers]
    eval_inputs += masks
    return TrainingSignature(
        inputs=tuple(inputs + masks), mask_names=tuple(mask_names), outputs=tuple(outputs),
        parameter_names=tuple(n for n, p in params.items() if p.requires_grad), norm_stats=tuple(norms),
        buffer_names=tuple(buffers), batch_size=b, num_classes=c, eval_inputs=tuple(eval_inputs),
    )
