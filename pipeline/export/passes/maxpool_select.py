"""Non-overlapping max-pooling (kernel == stride, no padding) as strided slices + selections.

ExecuTorch's portable ``max_pool2d_with_indices`` costs ~25 ns per input element (a third of a
small CNN's step after the convolution rewrite) and its backward kernel is wrong (the export
issue decomposes it into a slow ``scatter_add``). Here the forward is a ``maximum`` over the
kh*kw strided windows (one ``as_strided_copy`` each), and the backward recomputes which window element won from the saved input
with PyTorch's rule (the first maximum in scan order) as exact 0/1 factors (``sign(best - v)``),
hands the gradient down the taps with them (four elementwise passes a tap) and interleaves the pieces back
with ``stack``. All of it runs on cheap or optimized kernels. Equal to PyTorch for finite inputs;
the pooling ``indices`` output is not produced, so the pass only runs when nothing but the pooling
backward consumes it.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence

import torch

from pipeline.export.pass_manager import PassResult

aten = torch.ops.aten
_FWD = aten.max_pool2d_with_indices.default
_BWD = aten.max_pool2d_with_indices_backward.default


def _params(kernel: Sequence[int], stride: Sequence[int] = (), padding: Sequence[int] = (0,),
            dilation: Sequence[int] = (1,), ceil_mode: bool = False) -> tuple[int, int] | None:
    """(kh, kw) when the pooling is non-overlapping and unpadded, else None."""
    kh, kw = (kernel[0], kernel[0]) if len(kernel) == 1 else tuple(kernel)
    st = (kh, kw) if not stride else ((stride[0], stride[0]) if len(stride) == 1 else tuple(stride))
    if st != (kh, kw) or any(padding) or any(d != 1 for d in dilation) or ceil_mode:
        return None
    return kh, kw


def _windows(x: torch.Tensor, kh: int, kw: int) -> list[torch.Tensor]:
    """The kh*kw strided taps of each pooling window in scan order, each (..., Ho, Wo): one strided
    copy per tap (``as_strided_copy`` of the contiguous input, offset to the tap's first element)."""
    x = x.contiguous()
    *lead, h, w = x.shape
    ho, wo = h // kh, w // kw
    lead_strides = list(x.stride()[:-2])
    size, stride = [*lead, ho, wo], [*lead_strides, kh * w, kw]
    return [torch.ops.aten.as_strided_copy.default(x, size, stride, i * w + j) for i in range(kh) for j in range(kw)]


def _maxpool(x, kernel, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    k = _params(kernel, stride, padding, dilation, ceil_mode)
    if k is None:
        return NotImplemented
    taps = _windows(x, *k)
    best = taps[0]
    for v in taps[1:]:
        best = torch.maximum(best, v)
    # indices are consumed only by the backward below, which recomputes the winners instead
    return best, torch.zeros(best.shape, dtype=torch.int64)


def _maxpool_backward(grad, x, kernel, stride, padding, dilation, ceil_mode, indices):
    k = _params(kernel, stride, padding, dilation, ceil_mode)
    if k is None:
        return NotImplemented
    kh, kw = k
    taps = _windows(x, kh, kw)
    best = taps[0]
    for v in taps[1:]:
        best = torch.maximum(best, v)
    # Taps in scan order: `rest` is the gradient no earlier tap took; sign(best - v) is exactly 0 where
    # v is the window's maximum, 1 elsewhere, so `left` keeps it for the later taps and the
    # difference is this tap's share (all of it or +0). The last tap takes what is left.
    pieces, rest = [], grad
    for v in taps[:-1]:
        left = rest * torch.sign(best - v)
        pieces.append(rest - left)
        rest = left
    pieces.append(rest)
    n_lead = grad.dim() - 2
    ho, wo = grad.shape[-2:]
    lead = tuple(grad.shape[:-2])
    rows = [torch.stack(pieces[i * kw:(i + 1) * kw], dim=n_lead + 2).reshape(*lead, ho, wo * kw) for i in range(kh)]
    full = torch.stack(rows, dim=n_lead + 1).reshape(*lead, ho * kh, wo * kw)
    h, w = x.shape[-2:]
    if w > wo * kw:
        full = torch.cat([full, full.new_zeros(*lead, ho * kh, w - wo * kw)], dim=-1)
    if h > ho * kh:
        full = torch.cat([full, full.new_zeros(*lead, h - ho * kh, w)], dim=-2)
    return full


def _eligible(ep: torch.export.ExportedProgram) -> tuple[int, str]:
    """Number of pools to rewrite, or 0 and the reason none can be."""
    pools = [n for n in ep.graph.nodes if n.op == "call_function" and n.target is _FWD]
    for n in pools:
        if _params(*n.args[1:]) is None:
            return 0, f"{n.name}: overlapping or padded pooling"
        for user in n.users:
            if user.target is operator.getitem and user.args[1] == 1:
                if any(u.target is not _BWD for u in user.users):
                    return 0, f"{n.name}: pooling indices used outside its backward"
    return len(pools), ""


class MaxPoolAsSelect:
    name = "maxpool_select"
    stage = "et_joint"
    before_correctness = True  # needs the pooling backward before decompose_maxpool_backward rewrites it

    def __call__(self, ep: torch.export.ExportedProgram) -> PassResult:
        count, why = _eligible(ep)
        if not count:
            return PassResult(ep, False, why)
        ep = ep.run_decompositions({_FWD: _maxpool, _BWD: _maxpool_backward})
        left = sum(1 for n in ep.graph.nodes if n.op == "call_function" and n.target in (_FWD, _BWD))
        if left:
            raise RuntimeError(f"{left} max-pooling node(s) survived the rewrite")
        return PassResult(ep, True, f"{count} max-pooling node(s) rewritten (forward and backward)")
