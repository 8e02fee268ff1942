"""Rewrite convolutions of the joint training graph (forward and backward), and of the eval graph,
onto batched matmuls.

The portable ``convolution`` and ``convolution_backward`` kernels were ~95% of an ExecuTorch
training step (bench/RESULTS.md). This pass decomposes both, for 1-D and 2-D convolutions
with ``groups == 1``, into ``conv_im2col_ops``' im2col + ``bmm`` formulation. Grouped, depthwise
and transposed convolutions are left to the portable kernels and reported in ``detail``.
"""
from __future__ import annotations

from typing import Any

import torch

from pipeline.export.pass_manager import PassResult
from pipeline.export.passes.conv_im2col_ops import (
    conv2d_forward,
    conv2d_input_grad,
    conv2d_weight_grad,
)

_FWD = torch.ops.aten.convolution.default
_BWD = torch.ops.aten.convolution_backward.default


def _supported(x_ndim: int, transposed: bool, groups: int) -> bool:
    return x_ndim in (3, 4) and not transposed and groups == 1


def _as_2d(ndim: int, stride, padding, dilation) -> tuple[tuple[int, int], ...]:
    """1-D convolution params become 2-D with a height of 1."""
    if ndim == 3:
        return (1, stride[0]), (0, padding[0]), (1, dilation[0])
    return tuple(stride), tuple(padding), tuple(dilation)


def _contiguous(t: torch.Tensor | None) -> torch.Tensor | None:
    """The replaced ops' outputs are contiguous, and the graph's later views assume it (a user's
    ``flatten`` after a convolution): a decomposition's result that is not is copied (a no-op otherwise)."""
    return None if t is None else t.contiguous()


def _convolution(x, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    if not _supported(x.dim(), transposed, groups):
        return NotImplemented
    s, p, d = _as_2d(x.dim(), stride, padding, dilation)
    if x.dim() == 3:
        return _contiguous(conv2d_forward(x.unsqueeze(2), weight.unsqueeze(2), bias, s, p, d).squeeze(2))
    return _contiguous(conv2d_forward(x, weight, bias, s, p, d))


def _convolution_backward(grad, x, weight, bias_sizes, stride, padding, dilation, transposed, output_padding,
                          groups, output_mask):
    if not _supported(x.dim(), transposed, groups):
        return NotImplemented
    s, p, d = _as_2d(x.dim(), stride, padding, dilation)
    one_d = x.dim() == 3
    g4, x4, w4 = (grad.unsqueeze(2), x.unsqueeze(2), weight.unsqueeze(2)) if one_d else (grad, x, weight)
    gi = gw = gb = None
    if output_mask[0]:
        gi = conv2d_input_grad(g4, x4.shape, w4, s, p, d)
        gi = gi.squeeze(2) if one_d else gi
    if output_mask[1]:
        gw = conv2d_weight_grad(g4, x4, w4.shape, s, p, d)
        gw = gw.squeeze(2) if one_d else gw
    if output_mask[2]:
        gb = grad.sum(dim=[0, 2, 3] if not one_d else [0, 2])
    return _contiguous(gi), _contiguous(gw), _contiguous(gb)


def _eligible(node: torch.fx.Node) -> bool:
    x = node.args[1] if node.target is _BWD else node.args[0]
    transposed, groups = (node.args[7], node.args[9]) if node.target is _BWD else (node.args[6], node.args[8])
    return _supported(x.meta["val"].dim(), bool(transposed), int(groups))


class ConvToMatmul:
    """``convolution`` / ``convolution_backward`` -> im2col + ``bmm`` (forward, input and weight grads)."""

    name = "conv_im2col"
    stage = "et_joint"

    def __call__(self, ep: torch.export.ExportedProgram) -> PassResult:
        convs = [n for n in ep.graph.nodes if n.op == "call_function" and n.target in (_FWD, _BWD)]
        todo = [n for n in convs if _eligible(n)]
        if not todo:
            return PassResult(ep, False, f"{len(convs)} convolution node(s), none eligible" if convs else "")
        table: dict[Any, Any] = {_FWD: _convolution, _BWD: _convolution_backward}
        ep = ep.run_decompositions(table)
        left = [n for n in ep.graph.nodes if n.op == "call_function" and n.target in (_FWD, _BWD)]
        detail = f"{len(todo)} convolution node(s) rewritten"
        if left:
            detail += f"; {len(left)} left on portable kernels (grouped/depthwise/transposed)"
        return PassResult(ep, True, detail)


class EvalConvToMatmul(ConvToMatmul):
    """The same rewrite on the forward-only eval program: left on the portable ``convolution`` kernel,
    an evaluation batch cost ~40 training steps of the same model."""

    name = "conv_im2col_eval"
    stage = "et_eval"
