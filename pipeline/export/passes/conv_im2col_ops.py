"""Convolution forward and backward written as im2col + batched matrix multiplies.

ExecuTorch's portable ``convolution`` / ``convolution_backward`` kernels are naive single-thread
loops; ``bmm`` has an optimized kernel in the shipped library, and slicing, ``cat``/``stack`` on
outer dims, ``sum`` and ``add`` are cheap. These functions are decompositions for
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


def _taps(xp: torch.Tensor, kh: int, kw: int, ho: int, wo: int, stride: Sequence[int],
          dilation: Sequence[int]) -> list[torch.Tensor]:
    """The kh*kw shifted (and strided) windows of the padded input, each (N, C, Ho, Wo)."""
    (sh, sw), (dh, dw) = stride, dilation
    return [xp[:, :, i * dh: i * dh + sh * (ho - 1) + 1: sh, j * dw: j * dw + sw * (wo - 1) + 1: sw]
            for i in range(kh) for j in range(kw)]


def _pad(x: torch.Tensor, ph: int, pw: int) -> torch.Tensor:
    """Zero padding by ``cat`` (ExecuTorch's ``constant_pad_nd`` is slower and rejects negative pads)."""
    n, c, h, w = x.shape
    if pw:
        z = x.new_zeros(n, c, h, pw)
        x = torch.cat([z, x, z], dim=3)
    if ph:
        z = x.new_zeros(n, c, ph, w + 2 * pw)
        x = torch.cat([z, x, z], dim=2)
    return x


def im2col(x: torch.Tensor, kh: int, kw: int, stride: Sequence[int], padding: Sequence[int],
           dilation: Sequence[int]) -> tuple[torch.Tensor, int, int]:
    """(N, C*kh*kw, Ho*Wo) columns of ``x`` (N, C, H, W), channel-major; plus Ho, Wo."""
    n, c, h, w = x.shape
    ho = out_size(h, kh, stride[0], padding[0], dilation[0])
    wo = out_size(w, kw, stride[1], padding[1], dilation[1])
    if kh == kw == 1 and not any(padding) and tuple(stride) == (1, 1):
        return x.reshape(n, c, h * w), ho, wo
    taps = _taps(_pad(x, padding[0], padding[1]), kh, kw, ho, wo, stride, dilation)
    if len(taps) == 1:
        return taps[0].reshape(n, c, ho * wo), ho, wo
    return torch.stack(taps, dim=2).reshape(n, c * kh * kw, ho * wo), ho, wo


def conv2d_forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, stride: Sequence[int],
                   padding: Sequence[int], dilation: Sequence[int]) -> torch.Tensor:
    """``conv2d`` (groups=1) as one bmm of the weight against the columns of each sample."""
    n = x.shape[0]
    o, c, kh, kw = weight.shape
    cols, ho, wo = im2col(x, kh, kw, stride, padding, dilation)
    out = torch.bmm(weight.reshape(1, o, c * kh * kw).expand(n, o, c * kh * kw), cols)
    out = out.view(n, o, ho, wo)
    return out if bias is None else out + bias.view(1, o, 1, 1)


def _col2im(gcols: torch.Tensor, in_shape: Sequence[int], kh: int, kw: int, ho: int, wo: int,
            stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int]) -> torch.Tensor:
    """Scatter-add column gradients (N, C*kh*kw, Ho*Wo) back onto the input (N, C, H, W)."""
    n, c, h, w = in_shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    pieces = gcols.view(n, c, kh * kw, ho, wo)
    acc = gcols.new_zeros(n, c, h + 2 * ph, w + 2 * pw)
    for t in range(kh * kw):
        i, j = divmod(t, kw)
        r0, r1, c0, c1 = i * dh, i * dh + sh * (ho - 1) + 1, j * dw, j * dw + sw * (wo - 1) + 1
        rows = acc[:, :, r0:r1:sh]
        rows = torch.slice_scatter(rows, rows[:, :, :, c0:c1:sw] + pieces[:, :, t], dim=3, start=c0, end=c1, step=sw)
        acc = torch.slice_scatter(acc, rows, dim=2, start=r0, end=r1, step=sh)
    return acc[:, :, ph:ph + h, pw:pw + w]


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
    """d loss / d weight = sum over samples of grad @ cols^T. One operand must be transposed (an
    activation-sized ``permute_copy``): transpose whichever is smaller, the output gradient
    (O rows) or the columns (C*kh*kw rows)."""
    n, o, ho, wo = grad.shape
    _, c, kh, kw = weight_shape
    cols, _, _ = im2col(x, kh, kw, stride, padding, dilation)
    g = grad.reshape(n, o, ho * wo)
    if c * kh * kw < o:
        return torch.bmm(g, cols.transpose(1, 2)).sum(dim=0).reshape(o, c, kh, kw)
    return torch.bmm(cols, g.transpose(1, 2)).sum(dim=0).t().reshape(o, c, kh, kw)
