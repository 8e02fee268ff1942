"""Structured-sparse export: physically remove masked output channels.

For each layer with a channel mask, the layer's kept output channels are sliced out, and so are
the matching channels of everything that consumes them up to the next Linear/Conv: BatchNorm
(weights and running stats), depthwise convs (whose output channels follow their input), and the
next layer's input channels (a Flatten in between maps channel c to features c*S..c*S+S-1).
The consumer graph comes from ``torch.fx``; a consumer that cannot be sliced (a residual add, a
concat) is an ``ExportError`` naming the layer. The kept indices go into the manifest so weights
can be mapped back to the dense model.
"""
from __future__ import annotations

import operator

import numpy as np
import torch
import torch.nn.functional as F
from torch import fx, nn
from torch.fx.passes.shape_prop import ShapeProp

from pipeline.errors import ExportError

_PASS_MODULES = (nn.ReLU, nn.ReLU6, nn.MaxPool1d, nn.MaxPool2d, nn.AvgPool1d, nn.AvgPool2d, nn.AdaptiveAvgPool1d,
                 nn.AdaptiveAvgPool2d, nn.Identity, nn.Dropout)
_PASS_FUNCTIONS = (F.relu, torch.relu, F.adaptive_avg_pool2d, F.adaptive_avg_pool1d, F.max_pool2d, F.avg_pool2d)
_NORMS = (nn.BatchNorm1d, nn.BatchNorm2d)
_CONVS = (nn.Conv1d, nn.Conv2d)


def _param(t: torch.Tensor) -> nn.Parameter:
    return nn.Parameter(t.detach().clone().contiguous())


def _slice_out(module: nn.Module, idx: torch.Tensor) -> None:
    module.weight = _param(module.weight[idx])
    if getattr(module, "bias", None) is not None:
        module.bias = _param(module.bias[idx])
    if isinstance(module, _NORMS):
        module.running_mean = module.running_mean[idx].clone()
        module.running_var = module.running_var[idx].clone()
        module.num_features = len(idx)
    elif isinstance(module, nn.Linear):
        module.out_features = len(idx)
    else:
        module.out_channels = len(idx)


def _slice_in(module: nn.Module, idx: torch.Tensor) -> None:
    module.weight = _param(module.weight[:, idx])
    if isinstance(module, nn.Linear):
        module.in_features = len(idx)
    else:
        module.in_channels = len(idx)


def _consumers(gm: fx.GraphModule, start: fx.Node, layer: str, modules: dict[str, nn.Module]):
    """Walk from ``start`` to the next layers; yield (kind, module name, spatial factor)."""
    stack, seen = [(start, 1)], set()
    while stack:
        node, factor = stack.pop()
        for user in node.users:
            if user in seen:
                continue
            seen.add(user)
            mod = modules.get(user.target) if user.op == "call_module" else None
            if isinstance(mod, _NORMS):
                yield "norm", user.target, factor
                stack.append((user, factor))
            elif isinstance(mod, _CONVS) and mod.groups == mod.in_channels == mod.out_channels and mod.groups > 1:
                yield "depthwise", user.target, factor
                stack.append((user, factor))
            elif isinstance(mod, (*_CONVS, nn.Linear)) and getattr(mod, "groups", 1) == 1:
                yield "next", user.target, factor
            elif isinstance(mod, _PASS_MODULES) or (user.op == "call_function" and user.target in _PASS_FUNCTIONS):
                stack.append((user, factor))
            elif isinstance(mod, nn.Flatten) or (user.op == "call_method" and user.target == "flatten"):
                shape = node.meta["tensor_meta"].shape
                stack.append((user, factor * int(np.prod(shape[2:])) if len(shape) > 2 else factor))
            else:
                what = user.target if user.op == "call_module" else getattr(user.target, "__name__", str(user.target))
                if user.op == "call_function" and user.target in (operator.add, torch.add, torch.cat):
                    what = f"{what} (residual/concat)"
                raise ExportError(f"cannot remove channels of layer {layer!r}: its output feeds {what!r}, which cannot be "
                                  "sliced; use unstructured masks (sparcl.structured = false) for this layer", node=user.name)


def prune_channels(model: nn.Module, channel_masks: dict[str, np.ndarray], masks: dict[str, np.ndarray],
                   input_shape: tuple[int, ...]) -> tuple[nn.Module, dict[str, list[int]], dict[str, np.ndarray]]:
    """Slice channels in place; return (model, kept indices per layer, masks sliced to match)."""
    modules = dict(model.named_modules())
    try:
        gm = fx.symbolic_trace(model)
        ShapeProp(gm).propagate(torch.zeros(1, *input_shape))
    except Exception as exc:
        raise ExportError(f"cannot trace the model to find channel consumers: {exc}") from exc
    nodes = {n.target: n for n in gm.graph.nodes if n.op == "call_module"}
    kept: dict[str, list[int]] = {}
    masks = dict(masks)
    for layer, keep in channel_masks.items():
        mod = modules.get(layer)
        if not isinstance(mod, (*_CONVS, nn.Linear)) or getattr(mod, "groups", 1) != 1:
            raise ExportError(f"channel mask for {layer!r}: expected a Linear or (non-grouped) Conv layer", node=layer)
        keep = np.asarray(keep, dtype=bool)
        width = mod.weight.shape[0]
        if keep.shape != (width,) or not keep.any():
            raise ExportError(f"channel mask for {layer!r}: expected {width} booleans with at least one True")
        idx = torch.from_numpy(np.flatnonzero(keep))
        consumers = list(_consumers(gm, nodes[layer], layer, modules))
        if not any(kind == "next" for kind, _, _ in consumers):
            raise ExportError(f"cannot remove channels of layer {layer!r}: it feeds the output directly", node=layer)
        for kind, name, factor in consumers:
            target = modules[name]
            if kind in ("norm", "depthwise"):
                if kind == "depthwise":
                    target.groups = target.in_channels = len(idx)
                _slice_out(target, idx)
                _slice_mask(masks, name, 0, idx.numpy())
            else:
                feat = (idx[:, None] * factor + torch.arange(factor)[None]).reshape(-1)
                _slice_in(target, feat)
                _slice_mask(masks, name, 1, feat.numpy())
        _slice_out(mod, idx)
        _slice_mask(masks, layer, 0, idx.numpy())
        kept[layer] = idx.tolist()
    return model, kept, masks


def _slice_mask(masks: dict[str, np.ndarray], layer: str, axis: int, idx: np.ndarray) -> None:
    name = layer + ".weight"
    if name in masks:
        masks[name] = np.ascontiguousarray(np.take(masks[name], idx, axis=axis))
