"""Convolution forward and backward written as im2col + batched matrix multiplies.

ExecuTorch's portable ``convolution`` / ``convolution_backward`` kernels are naive single-thread
loops; ``bmm`` has an optimized kernel in the shipped library, and strided copies, ``sum`` and
``add`` are cheap. Every copy pass costs a full read and write of an activation, so im2col is one
``constant_pad_nd`` and one ``as_strided_copy`` that writes the columns in their final layout. These functions are decompositions for
``aten.convolution`` and ``aten.convolution_backward`` (see ``conv_im2col.py``) built only from
those ops. Layout stays NCHW throughout: ExecuTorch's ``permute_copy`` costs ~5-7 ns per element,
so activation-sized transposes are kept to one per convolution (a weight-gradient operand).

Columns are laid out (N, C*kh*kw, Ho*Wo) with the channel outermost, which is exactly
``weight.view(O, C*kh*kw)``'s order, so the weight never needs a permute.
"""
from __future__ import annotations

from collections.abc import Sequence

import torch


def out_size(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _out_hw(h: int, w: int, kh: int, kw: int, stride: Sequence[int], padding: Sequence[int],
            dilation: Sequence[int]) -> tuple[int, int]:
    """(Ho, Wo) of a convolution of an H x W input."""
    return (out_size(h, kh, stride[0], padding[0], dilation[0]),
            out_size(w, kw, stride[1], padding[1], dilation[1]))


def _pad(x: torch.Tensor, ph: int, pw: int) -> torch.Tensor:
    """Zero padding in one pass (``constant_pad_nd``: one copy of the input, where two ``cat`` along
    H and W made two, the W one in 1-element chunks). Unpadded: ``x`` itself, made contiguous, which
    ExecuTorch's every tensor is (``im2col``'s strides are relative to it)."""
    if not (ph or pw):
        return x.contiguous()
    return torch.ops.aten.constant_pad_nd.default(x, [pw, pw, ph, ph], 0.0)


def _padded_windows(x: torch.Tensor, kh: int, kw: int, stride: Sequence[int], padding: Sequence[int],
                    dilation: Sequence[int]) -> tuple[torch.Tensor, list[int], list[int], int, int]:
    """The padded input and the (N, C, kh, kw, Ho, Wo) sizes and element strides of its windows:
    window[n, c, i, j, y, x] = xp[n, c, i*dh + y*sh, j*dw + x*sw]."""
    n, c, h, w = x.shape
    ho, wo = _out_hw(h, w, kh, kw, stride, padding, dilation)
    xp = _pad(x, padding[0], padding[1])
    hp, wp = h + 2 * padding[0], w + 2 * padding[1]
    (sh, sw), (dh, dw) = stride, dilation
    return xp, [n, c, kh, kw, ho, wo], [c * hp * wp, hp * wp, dh * wp, dw, sh * wp, sw], ho, wo


def im2col(x: torch.Tensor, kh: int, kw: int, stride: Sequence[int], padding: Sequence[int],
           dilation: Sequence[int]) -> tuple[torch.Tensor, int, int]:
    """(N, C*kh*kw, Ho*Wo) columns of ``x`` (N, C, H, W), channel-major; plus Ho, Wo. The whole
    im2col is one strided copy."""
    n, c, h, w = x.shape
    if kh == kw == 1 and not any(padding) and tuple(stride) == (1, 1):
        return x.reshape(n, c, h * w), h, w
    xp, size, strides, ho, wo = _padded_windows(x, kh, kw, stride, padding, dilation)
    cols = torch.ops.aten.as_strided_copy.default(xp, size, strides)
    return cols.view(n, c * kh * kw, ho * wo), ho, wo


def im2col_t(x: torch.Tensor, kh: int, kw: int, stride: Sequence[int], padding: Sequence[int],
             dilation: Sequence[int]) -> tuple[torch.Tensor, int, int]:
    """The same columns with the samples inside: (C*kh*kw, N*Ho*Wo), for one ``mm`` of the whole batch."""
    n, c = x.shape[:2]
    xp, size, strides, ho, wo = _padded_windows(x, kh, kw, stride, padding, dilation)
    order = [1, 2, 3, 0, 4, 5]   # (C, kh, kw, N, Ho, Wo)
    cols = torch.ops.aten.as_strided_copy.default(xp, [size[i] for i in order], [strides[i] for i in order])
    return cols.view(c * kh * kw, n * ho * wo), ho, wo


def _batch_in_columns(ckk: int, hw: int) -> bool:
    """True when a convolution's products take the whole batch at once: ``mm`` over (C*kh*kw,
    N*Ho*Wo) columns, which costs the output's (O, N) -> (N, O) permute (N*O*Ho*Wo elements), instead
    of ``bmm`` per sample, which costs N copies of the weight (N*O*C*kh*kw) and, for the weight
    gradient, N per-sample products to sum. Deep layers (few pixels, long columns) take the batch."""
    return ckk > hw


def conv2d_forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, stride: Sequence[int],
                   padding: Sequence[int], dilation: Sequence[int]) -> torch.Tensor:
    """``conv2d`` (groups=1) as matrix products of the weight against the columns: one ``bmm``
    against each sample's columns, or one ``mm`` against the batch's (``_batch_in_columns``). Each
    output element is the same sum in the same order (k ascending) either way."""
    n, _, h, w = x.shape
    o, c, kh, kw = weight.shape
    ho, wo = _out_hw(h, w, kh, kw, stride, padding, dilation)
    if _batch_in_columns(c * kh * kw, ho * wo):
        cols_t, _, _ = im2col_t(x, kh, kw, stride, padding, dilation)
        prod = torch.mm(weight.reshape(o, c * kh * kw), cols_t).view(o, n, ho, wo)
        out = torch.ops.aten.permute_copy.default(prod, [1, 0, 2, 3])   # contiguous, as convolution's output
    else:
        cols, _, _ = im2col(x, kh, kw, stride, padding, dilation)
        out = torch.bmm(weight.reshape(1, o, c * kh * kw).expand(n, o, c * kh * kw), cols).view(n, o, ho, wo)
    return out if bias is None else out + bias.view(1, o, 1, 1)


def _col2im(gcols: torch.Tensor, in_shape: Sequence[int], kh: int, kw: int, ho: int, wo: int,
            stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int]) -> torch.Tensor:
    """Scatter-add column gradients (N, C*kh*kw, Ho*Wo) back onto the input (N, C, H, W), by phase:
    tap (i, j) lands on the padded rows i*dh + y*sh, i.e. on row y + (i*dh) // sh of the row phase
    (i*dh) % sh (columns likewise). Each of the sh*sw phase images is the sum of its taps' pieces,
    each zero-padded to its offset, added in tap order from zero, so every element is the same sum
    in the same order as a tap-by-tap scatter; the phases are then interleaved by one permute. A
    copy per tap of a quarter-size image (stride 2), where a scatter per tap copied the whole input
    twice."""
    n, c, h, w = in_shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    rows, cols = -(-(h + 2 * ph) // sh), -(-(w + 2 * pw) // sw)   # every phase image padded to one size
    pieces = gcols.view(n, c, kh * kw, ho, wo)
    phases = [[gcols.new_zeros(n, c, rows, cols) for _ in range(sw)] for _ in range(sh)]
    for t in range(kh * kw):
        (ri, a), (ci, b) = divmod(t // kw * dh, sh), divmod(t % kw * dw, sw)
        placed = torch.ops.aten.constant_pad_nd.default(pieces[:, :, t], [ci, cols - wo - ci, ri, rows - ho - ri], 0.0)
        phases[a][b] = phases[a][b] + placed
    if sh == sw == 1:
        acc = phases[0][0]
    else:   # (N, C, sh, sw, R, Q) -> (N, C, R, sh, Q, sw) = the padded input, rows r*sh + a, columns q*sw + b
        stacked = torch.stack([torch.stack(row, dim=2) for row in phases], dim=2)
        acc = torch.ops.aten.permute_copy.default(stacked, [0, 1, 4, 2, 5, 3]).reshape(n, c, rows * sh, cols * sw)
    return _crop(acc, ph, h, pw, w)


def _crop(acc: torch.Tensor, ph: int, h: int, pw: int, w: int) -> torch.Tensor:
    """``acc[:, :, ph:ph + h, pw:pw + w]`` as ``slice_copy`` (the copies ExecuTorch makes of a slice anyway),
    so the input gradient is contiguous like ``convolution_backward``'s and any view of it stays valid."""
    if (ph, acc.shape[2]) != (0, h):
        acc = torch.ops.aten.slice_copy.Tensor(acc, 2, ph, ph + h)
    if (pw, acc.shape[3]) != (0, w):
        acc = torch.ops.aten.slice_copy.Tensor(acc, 3, pw, pw + w)
    return acc


def conv2d_input_grad(grad: torch.Tensor, x_shape: Sequence[int], weight: torch.Tensor, stride: Sequence[int],
                      padding: Sequence[int], dilation: Sequence[int]) -> torch.Tensor:
    """d loss / d input. Stride 1: a convolution of the gradient with the flipped, transposed
    weight (one more im2col + bmm, no scatter). Otherwise: columns gradient, then col2im."""
    n, o, ho, wo = grad.shape
    _, c, kh, kw = weight.shape
    (dh, dw), (ph, pw) = dilation, padding
    fph, fpw = dh * (kh - 1) - ph, dw * (kw - 1) - pw
    if tuple(stride) == (1, 1) and fph >= 0 and fpw >= 0:
        flipped = weight.flip([2, 3]).transpose(0, 1) if kh * kw > 1 else weight.transpose(0, 1)
        gi = conv2d_forward(grad, flipped, None, (1, 1), (fph, fpw), dilation)
        if tuple(gi.shape) == tuple(x_shape):
            return gi
    wt = weight.reshape(o, c * kh * kw).t()
    gcols = torch.bmm(wt.reshape(1, c * kh * kw, o).expand(n, c * kh * kw, o), grad.reshape(n, o, ho * wo))
    return _col2im(gcols, x_shape, kh, kw, ho, wo, stride, padding, dilation)


def conv2d_weight_grad(grad: torch.Tensor, x: torch.Tensor, weight_shape: Sequence[int], stride: Sequence[int],
                       padding: Sequence[int], dilation: Sequence[int]) -> torch.Tensor:
    """d loss / d weight = grad @ cols^T summed over samples. With the batch in the columns (as the
    forward chose, so the columns are the forward's): one ``mm`` over all N*Ho*Wo positions. Else
    per sample, then summed; one operand must be transposed (an activation-sized ``permute_copy``):
    whichever is smaller, the output gradient (O rows) or the columns (C*kh*kw rows)."""
    n, o, ho, wo = grad.shape
    _, c, kh, kw = weight_shape
    g = grad.reshape(n, o, ho * wo)
    if _batch_in_columns(c * kh * kw, ho * wo):
        cols_t, _, _ = im2col_t(x, kh, kw, stride, padding, dilation)
        g_rows = torch.ops.aten.permute_copy.default(g, [0, 2, 1]).view(n * ho * wo, o)   # one copy, contiguous
        return torch.mm(cols_t, g_rows).t().reshape(o, c, kh, kw)
    cols, _, _ = im2col(x, kh, kw, stride, padding, dilation)
    if c * kh * kw < o:
        return torch.bmm(g, cols.transpose(1, 2)).sum(dim=0).reshape(o, c, kh, kw)
    return torch.bmm(cols, g.transpose(1, 2)).sum(dim=0).t().reshape(o, c, kh, kw)
